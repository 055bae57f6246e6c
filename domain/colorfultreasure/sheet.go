package colorfultreasure

import (
	"cmp"
	"slices"
	"strings"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/gamekit"
	"github.com/treasury-games/treasury/domain/i18n"
	"github.com/treasury-games/treasury/domain/names"
)

// Sheet is a table's paper tally at the end of a physical game, sent to be
// checked (the body of POST /v1/score-sheets/verify).
type Sheet struct {
	Ruleset string        `json:"ruleset,omitempty"` // "colorful-treasure" where given
	Catalog string        `json:"catalog,omitempty"` // default "standard"
	Variant Variant       `json:"variant,omitempty"` // default standard
	Players []SheetPlayer `json:"players"`           // the whole table: the Colorful Gems award and the Chest depend on it
}

// SheetPlayer is what one player has in front of them at the end.
type SheetPlayer struct {
	Name          string    `json:"name"`
	Cards         []CardRef `json:"cards"`                   // every collected card, by wonder and kind
	DiamondTokens []string  `json:"diamond_tokens"`          // the wonders whose diamond tokens they hold
	ActionTokens  []string  `json:"action_tokens,omitempty"` // advanced: the effects of the action tokens they hold
	Awards        []string  `json:"awards,omitempty"`        // colorful_gems, explorer, chest
	Total         *int      `json:"total,omitempty"`         // what they added up, if they did
}

// SheetResult is what the server makes of a sheet: each player's lines as
// the rules compute them from what is written, the ranking, and what is wrong.
type SheetResult struct {
	Ruleset  string        `json:"ruleset"`
	Valid    bool          `json:"valid"`
	Players  []PlayerScore `json:"players"`
	Ranking  []Place       `json:"ranking"`
	Findings []Finding     `json:"findings"`
	TieBreak string        `json:"tie_break"`
	// TieBreakMessage is TieBreak as a message.
	TieBreakMessage i18n.Message `json:"tie_break_message"`
}

// Finding is one thing on a sheet that the rules say cannot be.
type Finding struct {
	Code   string `json:"code"`
	Player *int   `json:"player,omitempty"` // index into the sheet's players; absent for the whole table
	Reason string `json:"reason"`
	// ReasonMessage is Reason as a message, rendered in the reader's
	// language by the API.
	ReasonMessage i18n.Message `json:"reason_message"`
}

// The finding codes. They are stable: clients branch on them.
//
//	total_mismatch        the written total is not the sum of the lines
//	card_not_in_wonder    a card its wonder does not have (or a key or chest in junior)
//	card_repeated         one card listed twice by one player
//	card_shared           one card listed by two players
//	token_repeated        a diamond token listed twice by one player
//	token_shared          a diamond token listed by two players
//	award_shared          Colorful Gems or Explorer written by two players (each is taken once)
//	award_repeated        one award written twice by one player (there is one card of each)
//	award_in_junior       an award or an action token on a junior sheet
//	chest_award           the Chest written by other players than those with the most keys and chests
//	action_token_variant  an action token on a sheet that is not advanced
//	action_token_shared   one action token (either side) written twice
const (
	FindingTotalMismatch  = "total_mismatch"
	FindingNotInWonder    = "card_not_in_wonder"
	FindingCardRepeated   = "card_repeated"
	FindingCardShared     = "card_shared"
	FindingTokenRepeated  = "token_repeated"
	FindingTokenShared    = "token_shared"
	FindingAwardShared    = "award_shared"
	FindingAwardRepeated  = "award_repeated"
	FindingAwardJunior    = "award_in_junior"
	FindingChestAward     = "chest_award"
	FindingTokenVariant   = "action_token_variant"
	FindingActionRepeated = "action_token_shared"
)

// VerifySheet checks a sheet (JSON of Sheet) against the catalog it names.
func (r *Rules) VerifySheet(b []byte) ([]byte, error) {
	return gamekit.VerifyCatalogSheet(r.CatalogRules, b, "ct.sheet.not-json", func(s *Sheet) string { return s.Catalog }, VerifySheet)
}

// VerifySheet scores sheet s with catalog cat and reports what cannot be. A
// sheet that cannot be read is a domain.Invalid error naming the player and
// the field; anything else wrong is a Finding, and the sheet is scored as
// written (the Chest from the key and chest cards written).
func VerifySheet(cat *Catalog, s Sheet) (SheetResult, error) {
	variant := cmp.Or(s.Variant, VariantStandard)
	if variant != VariantStandard && variant != VariantJunior && variant != VariantAdvanced {
		return SheetResult{}, domain.Fail(domain.Invalid, "ct.invalid.variant", "variant", string(s.Variant))
	}
	if n := len(s.Players); n < MinPlayers || n > MaxPlayers {
		return SheetResult{}, domain.Fail(domain.Invalid, "ct.sheet.players", "min", MinPlayers, "max", MaxPlayers, "count", n)
	}
	junior, adv := variant == VariantJunior, variant == VariantAdvanced
	res := SheetResult{Ruleset: RulesetName, Findings: []Finding{}, TieBreak: TieBreak, TieBreakMessage: tieBreakMessage}
	find := func(code string, player int, key string, kv ...any) {
		m := i18n.M(key, kv...)
		f := Finding{Code: code, Reason: i18n.Text(m), ReasonMessage: m}
		if player >= 0 {
			p := player
			f.Player = &p
		}
		res.Findings = append(res.Findings, f)
	}
	type read struct {
		name    string
		cards   []Card
		tokens  []int
		effects []Effect
		awards  []string
	}
	written := make([]string, len(s.Players))
	for i, sp := range s.Players {
		written[i] = sp.Name
	}
	if err := names.Check(written); err != nil {
		return SheetResult{}, err
	}
	players := make([]read, len(s.Players))
	for i, sp := range s.Players {
		p := read{name: strings.TrimSpace(sp.Name)}
		for j, c := range sp.Cards {
			col, ok := cat.Index(c.Wonder)
			if !ok {
				return SheetResult{}, domain.Fail(domain.Invalid, "ct.sheet.card-wonder", "name", p.name, "index", j, "wonder", c.Wonder, "catalog", cat.Name)
			}
			if c.Kind < 0 || c.Kind >= NumKinds {
				return SheetResult{}, domain.Fail(domain.Invalid, "ct.sheet.card-kind", "name", p.name, "index", j)
			}
			p.cards = append(p.cards, Card{Wonder: col, Kind: c.Kind})
		}
		for _, w := range sp.DiamondTokens {
			col, ok := cat.Index(w)
			if !ok {
				return SheetResult{}, domain.Fail(domain.Invalid, "ct.sheet.token-wonder", "name", p.name, "wonder", w, "catalog", cat.Name)
			}
			p.tokens = append(p.tokens, col)
		}
		for _, e := range sp.ActionTokens {
			k := effectIndex(e)
			if k < 0 {
				return SheetResult{}, domain.Fail(domain.Invalid, "ct.sheet.action-token", "name", p.name, "token", e, "effects", strings.Join(effectNames[:], ", "))
			}
			p.effects = append(p.effects, Effect(k))
		}
		for _, a := range sp.Awards {
			if a != AwardColorful && a != AwardExplorer && a != AwardChest {
				return SheetResult{}, domain.Fail(domain.Invalid, "ct.sheet.award", "name", p.name, "award", a)
			}
			p.awards = append(p.awards, a)
		}
		players[i] = p
	}
	// Cards and tokens exist once.
	cardOwner := map[Card]int{}
	tokenOwner := map[int]int{}
	for i, p := range players {
		for _, c := range p.cards {
			w := &cat.Wonders[c.Wonder]
			switch o, seen := cardOwner[c]; {
			case !w.Has(c.Kind, junior):
				find(FindingNotInWonder, i, "ct.finding.card-not-in-wonder", "name", p.name, "wonder", wonderTerm(w.ID), "kind", kindTerm(c.Kind), "kinds", kindTerms(w.Cards(junior)))
			case seen && o == i:
				find(FindingCardRepeated, i, "ct.finding.card-repeated", "name", p.name, "wonder", wonderTerm(w.ID), "kind", kindTerm(c.Kind))
			case seen:
				find(FindingCardShared, i, "ct.finding.card-shared", "first", players[o].name, "name", p.name, "wonder", wonderTerm(w.ID), "kind", kindTerm(c.Kind))
			default:
				cardOwner[c] = i
			}
		}
		for _, col := range p.tokens {
			switch o, seen := tokenOwner[col]; {
			case seen && o == i:
				find(FindingTokenRepeated, i, "ct.finding.token-repeated", "name", p.name, "wonder", wonderTerm(cat.Wonders[col].ID))
			case seen:
				find(FindingTokenShared, i, "ct.finding.token-shared", "first", players[o].name, "name", p.name, "wonder", wonderTerm(cat.Wonders[col].ID))
			default:
				tokenOwner[col] = i
			}
		}
	}
	// Awards and action tokens.
	holder := map[string]int{}
	tokenHolder := map[int]int{}
	for i, p := range players {
		for j, a := range p.awards {
			if junior {
				find(FindingAwardJunior, i, "ct.finding.award-in-junior", "name", p.name, "award", awardTerm(a))
				continue
			}
			if before := count(p.awards[:j], a); before > 0 {
				if before == 1 { // one finding for an award however often it is written again
					find(FindingAwardRepeated, i, "ct.finding.award-repeated", "name", p.name, "award", awardTerm(a), "count", count(p.awards, a))
				}
				continue
			}
			if a == AwardChest {
				continue
			}
			if o, seen := holder[a]; seen {
				find(FindingAwardShared, i, "ct.finding.award-shared", "first", players[o].name, "name", p.name, "award", awardTerm(a))
				continue
			}
			holder[a] = i
		}
		for _, e := range p.effects {
			tok := int(e) / 2
			switch o, seen := tokenHolder[tok]; {
			case !adv:
				find(FindingTokenVariant, i, "ct.finding.action-token-variant", "name", p.name, "effect", effectTerm(e))
			case seen && o == i:
				find(FindingActionRepeated, i, "ct.finding.action-token-repeated", "name", p.name, "token", tok+1, "side_a", effectTerm(Effect(2*tok)), "side_b", effectTerm(Effect(2*tok+1)))
			case seen:
				find(FindingActionRepeated, i, "ct.finding.action-token-shared", "first", players[o].name, "name", p.name, "token", tok+1, "side_a", effectTerm(Effect(2*tok)), "side_b", effectTerm(Effect(2*tok+1)))
			default:
				tokenHolder[tok] = i
			}
		}
	}
	locks := make([]int, len(players))
	for i, p := range players {
		for _, c := range p.cards {
			if c.Kind.IsLock() {
				locks[i]++
			}
		}
	}
	chest := make([]int, len(players))
	if !junior {
		chest = ChestShares(locks)
	}
	for i, p := range players {
		if written := slices.Contains(p.awards, AwardChest); !junior && written != (chest[i] > 0) {
			if written {
				find(FindingChestAward, i, "ct.finding.chest-award-written", "name", p.name, "count", locks[i], "most", slices.Max(locks))
			} else {
				find(FindingChestAward, i, "ct.finding.chest-award-missing", "name", p.name, "count", locks[i], "points", chest[i])
			}
		}
	}
	colorful := 9
	if len(players) == 4 {
		colorful = 6
	}
	for i, p := range players {
		t := Tally{DiamondTokens: len(p.tokens), LockCards: locks[i], Awards: []AwardLine{}}
		var seen [NumWonders]bool
		for _, c := range p.cards {
			switch {
			case c.Kind == Diamond:
				t.DiamondCards++
			case c.Kind.IsGem():
				t.Gems[c.Kind.colourIndex()]++
			}
			if !seen[c.Wonder] {
				seen[c.Wonder] = true
				t.Wonders++
			}
		}
		if adv {
			t.Tokens = p.effects
		}
		if !junior {
			if holder[AwardColorful] == i && slices.Contains(p.awards, AwardColorful) {
				t.Awards = append(t.Awards, AwardLine{AwardColorful, colorful})
			}
			if holder[AwardExplorer] == i && slices.Contains(p.awards, AwardExplorer) {
				t.Awards = append(t.Awards, AwardLine{AwardExplorer, ExplorerPoints})
			}
			if chest[i] > 0 {
				t.Awards = append(t.Awards, AwardLine{AwardChest, chest[i]})
			}
		}
		ps := ScoreTally(t, adv)
		ps.Seat, ps.Name = i, p.name
		res.Players = append(res.Players, ps)
		if w := s.Players[i].Total; w != nil && *w != ps.Total {
			l := ps.Lines
			find(FindingTotalMismatch, i, "ct.finding.total-mismatch", "name", p.name, "written", *w, "total", ps.Total,
				"diamond_cards", l.DiamondCards, "diamond_tokens", l.DiamondTokens, "gems", l.Gems, "action_tokens", l.ActionTokens, "awards", l.Awards)
		}
	}
	res.Ranking = Rank(res.Players)
	res.Valid = len(res.Findings) == 0
	return res, nil
}

// count returns how many of xs are x.
func count(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}
