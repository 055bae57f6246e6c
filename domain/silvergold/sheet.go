package silvergold

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/gamekit"
	"github.com/treasury-games/treasury/domain/i18n"
	"github.com/treasury-games/treasury/domain/names"
)

// Sheet is the paper score cards of a table, as the players filled them in,
// sent to be checked (the body of POST /v1/score-sheets/verify). It may hold
// the whole table or only some of its players: nothing here assumes that the
// players it lists are all who played.
type Sheet struct {
	Ruleset string        `json:"ruleset,omitempty"` // "silver-and-gold" where given
	Catalog string        `json:"catalog,omitempty"` // catalog name; default "standard"
	Players []SheetPlayer `json:"players"`
}

// SheetPlayer is one player's score card.
type SheetPlayer struct {
	Name  string      `json:"name"`
	Cards []SheetCard `json:"cards"`           // completed treasure cards
	Coins int         `json:"coins"`           // crossed coin boxes
	Cups  []int       `json:"cups"`            // cup values written
	Palms []int       `json:"palms"`           // palm box values written
	Total *int        `json:"total,omitempty"` // what they added up, if they did
}

// SheetCard is one completed card: a catalog id, or, for a deck that is not
// in the catalog, the card written out (colour, value and any seal).
type SheetCard struct {
	ID     string `json:"id,omitempty"`
	Colour string `json:"colour,omitempty"`
	Value  int    `json:"value,omitempty"`
	Seal   *Seal  `json:"seal,omitempty"`
}

// SheetResult is what the server makes of a sheet: every player's lines as
// the rules compute them from what is written, the ranking, and what is wrong.
type SheetResult struct {
	Ruleset  string        `json:"ruleset"`  // "silver-and-gold"
	Valid    bool          `json:"valid"`    // no findings
	Players  []PlayerScore `json:"players"`  // Seat is the index into the sheet's players
	Ranking  []Place       `json:"ranking"`  // by the rules' ranking and tie-breaks
	Findings []Finding     `json:"findings"` // never nil
}

// Finding is one thing on a well-formed sheet that the rules say cannot be.
type Finding struct {
	Code   string `json:"code"`             // one of the Finding* codes
	Player *int   `json:"player,omitempty"` // index into the sheet's players; nil for the whole table
	Line   string `json:"line,omitempty"`   // coins, cups, palms, cards, seals or total
	Reason string `json:"reason"`           // a sentence a player can act on, in English
	// ReasonMessage is Reason as a message, which the API renders in the
	// player's language.
	ReasonMessage i18n.Message `json:"reason_message"`
}

// The finding codes. They are stable: clients branch on them.
//
//	code                       line    player        what is wrong
//	total_mismatch             total   the player    the written total is not the sum of the lines
//	too_many_coins             coins   the player    more than 12 coin boxes
//	too_many_cups              cups    the player    more cups than completed coin rows, or more than 3
//	cup_value                  cups    the player    a cup worth other than 1..6
//	cup_reused                 cups    second user   a cup value written twice (there is one cup of each)
//	too_many_palms             palms   the player    more than 4 palm values
//	palm_value                 palms   the player    a palm value below 1 or above 1 + the most palms 4 catalog cards show
//	card_repeated              cards   the player    a catalog card listed twice by one player
//	card_shared                cards   second lister a catalog card listed by two players
//	card_value                 cards   the player    a written-out card not worth its colour's value
//	too_many_cards_of_colour   cards   nil           more completed cards of a colour than a deck has
//	seal_own_colour            seals   the player    a written-out seal naming its own card's colour
//	seal_value                 seals   the player    a written-out seal worth other than its colour's points
//	seal_repeated              seals   second holder two cards of one colour whose seals name the same colour
//	coins_not_on_cards         coins   the player    more coins than the player's cards can have shown
//	palms_not_on_cards         palms   the player    more palm values than the player's cards can have shown
//
// The last two apply only when every card on the sheet is a catalog id: a
// player crosses coins and palm trees only on their own cards, and every card
// they ever held is either in their scoring pile or one of the at most 2
// unfinished cards they hold at the end. A deck written out by hand does not
// say which symbols its cards show.
const (
	FindingTotalMismatch   = "total_mismatch"
	FindingTooManyCoins    = "too_many_coins"
	FindingTooManyCups     = "too_many_cups"
	FindingCupValue        = "cup_value"
	FindingCupReused       = "cup_reused"
	FindingTooManyPalms    = "too_many_palms"
	FindingPalmValue       = "palm_value"
	FindingCardRepeated    = "card_repeated"
	FindingCardShared      = "card_shared"
	FindingCardValue       = "card_value"
	FindingTooManyOfColour = "too_many_cards_of_colour"
	FindingSealOwnColour   = "seal_own_colour"
	FindingSealValue       = "seal_value"
	FindingSealRepeated    = "seal_repeated"
	FindingCoinsNotOnCards = "coins_not_on_cards"
	FindingPalmsNotOnCards = "palms_not_on_cards"
)

// The lines of a score card, as a Finding names them.
const (
	sheetLineCoins = "coins"
	sheetLineCups  = "cups"
	sheetLinePalms = "palms"
	sheetLineCards = "cards"
	sheetLineSeals = "seals"
	sheetLineTotal = "total"
)

const (
	cupBoxes   = CoinBoxes / CoinsPerRow // one cup box per row of coins
	highestCup = cupsAtStart             // the cups are worth 6 down to 1
)

// sheetLineOrder is the order of the lines on a score card, for sorting findings.
var sheetLineOrder = []string{sheetLineCoins, sheetLineCups, sheetLinePalms, sheetLineCards, sheetLineSeals, sheetLineTotal}

// VerifySheet scores a paper score sheet against catalog cat (the standard
// catalog when nil) and reports everything on it that the rules say cannot
// be. A sheet that cannot be read at all is a domain.Invalid error naming the
// player and the field; anything else that is wrong is a Finding, and the
// sheet is scored as written.
func VerifySheet(cat *Catalog, s Sheet) (SheetResult, error) {
	if cat == nil {
		cat = Standard()
	}
	if name := cmp.Or(s.Catalog, gamekit.DefaultCatalog); name != cat.Name {
		return SheetResult{}, domain.Fail(domain.Invalid, "sg.sheet.catalog", "name", quote(name), "checked", quote(cat.Name))
	}
	read, err := readSheet(cat, s)
	if err != nil {
		return SheetResult{}, err
	}
	v := sheetVerifier{cat: cat, sheet: read, findings: []Finding{}}
	res := SheetResult{Ruleset: RulesetName, Players: make([]PlayerScore, len(read))}
	for i, p := range read {
		ps := ScoreLines(p.lines, p.coins, slices.Clone(p.cups), slices.Clone(p.palms))
		ps.Seat, ps.Name = i, p.name
		res.Players[i] = ps
	}
	v.scores = res.Players
	v.check()
	res.Ranking = Rank(res.Players)
	res.Findings = v.sorted()
	res.Valid = len(res.Findings) == 0
	return res, nil
}

// sheetPlayer is a player's score card once read: names trimmed, cards looked
// up, nothing nil.
type sheetPlayer struct {
	name  string
	lines []CardLine
	idx   []int // catalog index of each card, -1 for a written-out card
	coins int
	cups  []int
	palms []int
	total *int
}

// readSheet checks that the sheet can be read and looks its cards up.
func readSheet(cat *Catalog, s Sheet) ([]sheetPlayer, error) {
	if n := len(s.Players); n < MinPlayers || n > MaxPlayers {
		return nil, domain.Fail(domain.Invalid, "sg.sheet.players", "min", MinPlayers, "max", MaxPlayers, "count", n)
	}
	if err := checkSheetNames(s.Players); err != nil {
		return nil, err
	}
	out := make([]sheetPlayer, len(s.Players))
	for i, sp := range s.Players {
		name := strings.TrimSpace(sp.Name)
		who := fmt.Sprintf("players[%d] (%s)", i, name)
		if sp.Coins < 0 {
			return nil, domain.Fail(domain.Invalid, "sg.sheet.coins", "who", who, "coins", sp.Coins)
		}
		for j, v := range sp.Cups {
			if v < 0 {
				return nil, domain.Fail(domain.Invalid, "sg.sheet.cup", "who", who, "index", j, "value", v)
			}
		}
		for j, v := range sp.Palms {
			if v < 0 {
				return nil, domain.Fail(domain.Invalid, "sg.sheet.palm", "who", who, "index", j, "value", v)
			}
		}
		if sp.Total != nil && *sp.Total < 0 {
			return nil, domain.Fail(domain.Invalid, "sg.sheet.total", "who", who, "total", *sp.Total)
		}
		p := sheetPlayer{
			name: name, coins: sp.Coins, total: sp.Total,
			cups: nonNil(slices.Clone(sp.Cups)), palms: nonNil(slices.Clone(sp.Palms)),
			lines: make([]CardLine, 0, len(sp.Cards)), idx: make([]int, 0, len(sp.Cards)),
		}
		for j, c := range sp.Cards {
			line, ix, problem := readSheetCard(cat, c)
			if !problem.Zero() {
				return nil, domain.Fail(domain.Invalid, "sg.sheet.card-problem", "who", who, "index", j, "problem", problem)
			}
			p.lines = append(p.lines, line)
			p.idx = append(p.idx, ix)
		}
		out[i] = p
	}
	return out, nil
}

// checkSheetNames holds the names on a sheet to the rules of a game's names.
func checkSheetNames(players []SheetPlayer) error {
	ns := make([]string, len(players))
	for i, p := range players {
		ns[i] = p.Name
	}
	return names.Check(ns)
}

// readSheetCard reads one card; the problem, when there is one, is the end
// of a sentence that begins with the player and the card's place.
func readSheetCard(cat *Catalog, c SheetCard) (CardLine, int, i18n.Message) {
	var ok i18n.Message
	written := c.Colour != "" || c.Value != 0 || c.Seal != nil
	switch {
	case c.ID != "" && written:
		return CardLine{}, 0, i18n.M("sg.sheet.card.both", "id", quote(c.ID))
	case c.ID != "":
		ix, found := cat.Index(c.ID)
		if !found {
			return CardLine{}, 0, i18n.M("sg.sheet.card.unknown", "id", quote(c.ID), "catalog", cat.Name)
		}
		card := &cat.Cards[ix]
		return CardLine{Card: card.ID, Colour: card.Colour, Value: card.Value, Seal: card.Seal}, ix, ok
	case !written:
		return CardLine{}, 0, i18n.M("sg.sheet.card.empty")
	}
	if c.Colour == "" {
		return CardLine{}, 0, i18n.M("sg.sheet.card.no-colour")
	}
	colour, known := ParseColour(c.Colour)
	if !known {
		return CardLine{}, 0, i18n.M("sg.sheet.card.colour", "colour", quote(c.Colour))
	}
	if c.Value < 0 {
		return CardLine{}, 0, i18n.M("sg.sheet.card.value", "value", c.Value)
	}
	line := CardLine{Colour: colour, Value: c.Value}
	if c.Seal != nil {
		if int(c.Seal.Colour) >= NumColours {
			return CardLine{}, 0, i18n.M("sg.sheet.card.seal-colour")
		}
		if c.Seal.Points < 0 {
			return CardLine{}, 0, i18n.M("sg.sheet.card.seal-points", "points", c.Seal.Points)
		}
		seal := *c.Seal
		line.Seal = &seal
	}
	return line, -1, ok
}

// sheetVerifier collects the findings on a sheet that could be read.
type sheetVerifier struct {
	cat      *Catalog
	sheet    []sheetPlayer
	scores   []PlayerScore
	findings []Finding
}

func (v *sheetVerifier) add(code string, player int, line string, reason i18n.Message) {
	f := Finding{Code: code, Line: line, Reason: i18n.Text(reason), ReasonMessage: reason}
	if player >= 0 {
		f.Player = &player
	}
	v.findings = append(v.findings, f)
}

// sorted returns the findings by player (the whole table last), then by line
// in score card order; each check adds in a stable order, so ties keep it.
func (v *sheetVerifier) sorted() []Finding {
	key := func(f Finding) (int, int) {
		p := len(v.sheet)
		if f.Player != nil {
			p = *f.Player
		}
		return p, slices.Index(sheetLineOrder, f.Line)
	}
	slices.SortStableFunc(v.findings, func(a, b Finding) int {
		pa, la := key(a)
		pb, lb := key(b)
		if pa != pb {
			return pa - pb
		}
		return la - lb
	})
	return v.findings
}

func (v *sheetVerifier) check() {
	for i := range v.sheet {
		v.checkCoinsAndCups(i)
		v.checkPalms(i)
		v.checkWrittenCards(i)
		v.checkTotal(i)
	}
	v.checkCupsUsedOnce()
	v.checkCardsUsedOnce()
	v.checkColourCounts()
	v.checkSealsUsedOnce()
	v.checkSymbols()
}

func (v *sheetVerifier) checkCoinsAndCups(i int) {
	p := &v.sheet[i]
	if p.coins > CoinBoxes {
		v.add(FindingTooManyCoins, i, sheetLineCoins, i18n.M("sg.finding.too-many-coins", "name", p.name, "coins", coinsOf(p.coins), "boxes", CoinBoxes))
	}
	rows := min(p.coins, CoinBoxes) / CoinsPerRow
	switch n := len(p.cups); {
	case n > cupBoxes:
		v.add(FindingTooManyCups, i, sheetLineCups, i18n.M("sg.finding.too-many-cups", "name", p.name, "cups", i18n.M("sg.n.cups", "count", n), "boxes", cupBoxes))
	case n > rows:
		v.add(FindingTooManyCups, i, sheetLineCups, i18n.M("sg.finding.cups-without-rows", "name", p.name, "cups", i18n.M("sg.n.cups", "count", n),
			"coins", coinsOf(p.coins), "rows", i18n.M("sg.n.rows", "count", rows), "per", CoinsPerRow))
	}
	for _, c := range p.cups {
		if c < 1 || c > highestCup {
			v.add(FindingCupValue, i, sheetLineCups, i18n.M("sg.finding.cup-value", "name", p.name, "value", c))
		}
	}
}

func (v *sheetVerifier) checkPalms(i int) {
	p := &v.sheet[i]
	if n := len(p.palms); n > PalmBoxes {
		v.add(FindingTooManyPalms, i, sheetLinePalms, i18n.M("sg.finding.too-many-palms", "name", p.name, "palms", i18n.M("sg.n.palm-values", "count", n), "boxes", PalmBoxes))
	}
	top := maxPalmValue(v.cat)
	for _, x := range p.palms {
		if x < 1 || x > top {
			v.add(FindingPalmValue, i, sheetLinePalms, i18n.M("sg.finding.palm-value", "name", p.name, "value", x, "top", top, "catalog", v.cat.Name))
		}
	}
}

// checkWrittenCards checks the value and the seal of every written-out card.
func (v *sheetVerifier) checkWrittenCards(i int) {
	p := &v.sheet[i]
	for j, c := range p.lines {
		if p.idx[j] >= 0 {
			continue
		}
		if c.Value != c.Colour.Boxes() {
			v.add(FindingCardValue, i, sheetLineCards, i18n.M("sg.finding.card-value", "name", p.name, "a_card", aColour(c.Colour), "value", c.Value, "worth", c.Colour.Boxes()))
		}
		if c.Seal == nil {
			continue
		}
		if c.Seal.Colour == c.Colour {
			v.add(FindingSealOwnColour, i, sheetLineSeals, i18n.M("sg.finding.seal-own-colour", "name", p.name, "a_card", aColour(c.Colour), "colour", c.Colour.Message()))
		}
		if c.Seal.Points != c.Seal.Colour.SealPoints() {
			v.add(FindingSealValue, i, sheetLineSeals, i18n.M("sg.finding.seal-value", "name", p.name, "colour", c.Seal.Colour.Message(), "points", c.Seal.Points, "worth", c.Seal.Colour.SealPoints()))
		}
	}
}

// checkTotal compares the written total with the sum of the lines and, when
// the difference points at one line or one entry, says which.
func (v *sheetVerifier) checkTotal(i int) {
	p, ps := &v.sheet[i], &v.scores[i]
	if p.total == nil || *p.total == ps.Total {
		return
	}
	written, l := *p.total, ps.Lines
	diff := written - ps.Total
	how := i18n.M("sg.finding.short", "count", -diff)
	if diff > 0 {
		how = i18n.M("sg.finding.over", "count", diff)
	}
	kv := []any{"name", p.name, "written", written, "total", ps.Total,
		"coins", l.Coins, "cups", l.Cups, "palms", l.Palms, "cards", l.Cards, "seals", l.Seals, "how", how}
	key := "sg.finding.total"
	if hint := totalHint(ps, written, diff); !hint.Zero() {
		key, kv = "sg.finding.total-hint", append(kv, "hint", hint)
	}
	v.add(FindingTotalMismatch, i, sheetLineTotal, i18n.M(key, kv...))
}

// totalHint names what a difference of diff between the written total and
// the computed one most likely comes from, or returns a zero message.
func totalHint(ps *PlayerScore, written, diff int) i18n.Message {
	d := max(diff, -diff)
	verb := "sg.hint.left-out"
	if diff > 0 {
		verb = "sg.hint.counted-twice"
	}
	l := ps.Lines
	var lines []i18n.Message
	for _, x := range []struct {
		name  string
		value int
	}{{sheetLineCoins, l.Coins}, {sheetLineCups, l.Cups}, {sheetLinePalms, l.Palms}, {sheetLineCards, l.Cards}, {sheetLineSeals, l.Seals}} {
		if x.value == d {
			lines = append(lines, i18n.M("sg.hint.line."+x.name, "value", x.value))
		}
	}
	if len(lines) > 0 {
		return i18n.M(verb, "what", joinOr(lines))
	}
	var entries []i18n.Message
	if slices.Contains(ps.CupValues, d) {
		entries = append(entries, i18n.M("sg.hint.cup", "value", d))
	}
	if slices.Contains(ps.PalmBoxes, d) {
		entries = append(entries, i18n.M("sg.hint.palm", "value", d))
	}
	if slices.ContainsFunc(ps.Cards, func(c CardLine) bool { return c.Value == d }) {
		entries = append(entries, i18n.M("sg.hint.card", "value", d))
	}
	if slices.ContainsFunc(ps.Seals, func(s SealLine) bool { return s.Value == d }) {
		entries = append(entries, i18n.M("sg.hint.seal", "value", d))
	}
	if len(entries) > 0 {
		return i18n.M(verb, "what", joinOr(entries))
	}
	if sameDigits(written, ps.Total) {
		return i18n.M("sg.hint.swapped")
	}
	return i18n.Message{}
}

// checkCupsUsedOnce reports a cup value written a second time, at the player
// who wrote it second: there is one cup of each value.
func (v *sheetVerifier) checkCupsUsedOnce() {
	first := map[int]int{}
	for i, p := range v.sheet {
		for _, c := range p.cups {
			if c < 1 || c > highestCup {
				continue // cup_value already
			}
			switch j := listedBefore(first, c, i); {
			case j < 0:
			case j == i:
				v.add(FindingCupReused, i, sheetLineCups, i18n.M("sg.finding.cup-twice", "name", p.name, "value", c))
			default:
				v.add(FindingCupReused, i, sheetLineCups, i18n.M("sg.finding.cup-shared", "first", v.sheet[j].name, "name", p.name, "value", c))
			}
		}
	}
}

// listedBefore returns who listed k before player i lists it: -1 for
// nobody (first then records i), i itself when i lists it twice. first
// holds the first player to list each.
func listedBefore[K comparable](first map[K]int, k K, i int) int {
	j, seen := first[k]
	if !seen {
		first[k] = i
		return -1
	}
	return j
}

// checkCardsUsedOnce reports a catalog card listed a second time, at the
// player who lists it second.
func (v *sheetVerifier) checkCardsUsedOnce() {
	first := map[int]int{}
	for i, p := range v.sheet {
		for _, ix := range p.idx {
			if ix < 0 {
				continue
			}
			id := v.cat.Cards[ix].ID
			switch j := listedBefore(first, ix, i); {
			case j < 0:
			case j == i:
				v.add(FindingCardRepeated, i, sheetLineCards, i18n.M("sg.finding.card-twice", "name", p.name, "card", id))
			default:
				v.add(FindingCardShared, i, sheetLineCards, i18n.M("sg.finding.card-shared", "first", v.sheet[j].name, "name", p.name, "card", id))
			}
		}
	}
}

// checkColourCounts compares the completed cards of each colour on the whole
// sheet with the deck.
func (v *sheetVerifier) checkColourCounts() {
	var n [NumColours]int
	for _, p := range v.sheet {
		for _, c := range p.lines {
			n[c.Colour]++
		}
	}
	for _, c := range Colours {
		if n[c] > deckCards[c] {
			v.add(FindingTooManyOfColour, -1, sheetLineCards, i18n.M("sg.finding.too-many-of-colour", "count", n[c], "colour", c.Message(), "deck", deckCards[c]))
		}
	}
}

// checkSealsUsedOnce holds the rule that the three seals on the cards of one
// colour name the three other colours once each: two completed cards of one
// colour whose seals name the same colour cannot both be. A catalog card
// listed twice is card_repeated or card_shared already, so it counts once.
func (v *sheetVerifier) checkSealsUsedOnce() {
	type pair struct{ card, named Colour }
	first := map[pair]int{}
	listed := map[int]bool{}
	for i, p := range v.sheet {
		for j, c := range p.lines {
			if c.Seal == nil || c.Seal.Colour == c.Colour {
				continue // seal_own_colour already
			}
			if ix := p.idx[j]; ix >= 0 {
				if listed[ix] {
					continue
				}
				listed[ix] = true
			}
			k := pair{c.Colour, c.Seal.Colour}
			who, seen := first[k]
			if !seen {
				first[k] = i
				continue
			}
			if who == i {
				v.add(FindingSealRepeated, i, sheetLineSeals, i18n.M("sg.finding.seal-twice", "name", p.name,
					"colour", c.Colour.Message(), "named", c.Seal.Colour.Message()))
				continue
			}
			v.add(FindingSealRepeated, i, sheetLineSeals, i18n.M("sg.finding.seal-shared", "first", v.sheet[who].name, "name", p.name,
				"a_card", aColour(c.Colour), "colour", c.Colour.Message(), "named", c.Seal.Colour.Message()))
		}
	}
}

// checkSymbols holds that coins and palm values come from symbols crossed on
// the player's own cards: those in their scoring pile and the at most 2 still
// in front of them, which can be any cards that no one on the sheet completed.
// A written-out deck does not show its symbols, so then nothing is checked.
func (v *sheetVerifier) checkSymbols() {
	listed := make([]bool, len(v.cat.Cards))
	for _, p := range v.sheet {
		for _, ix := range p.idx {
			if ix < 0 {
				return
			}
			listed[ix] = true
		}
	}
	coins := func(c *Card) int { return c.Coins.Count() }
	palms := func(c *Card) int { return c.Palms.Count() }
	spareCoins, sparePalms := v.unlistedMost(listed, coins), v.unlistedMost(listed, palms)
	for i, p := range v.sheet {
		onCoins, onPalms := v.onCards(p.idx, coins), v.onCards(p.idx, palms)
		if n := min(p.coins, CoinBoxes); n > onCoins+spareCoins {
			v.add(FindingCoinsNotOnCards, i, sheetLineCoins, i18n.M("sg.finding.coins-not-on-cards", "name", p.name, "coins", coinsOf(n),
				"most", onCoins+spareCoins, "shown", onCoins, "spare", spareCoins, "hand", HandSize))
		}
		if n := min(len(p.palms), PalmBoxes); n > onPalms+sparePalms {
			v.add(FindingPalmsNotOnCards, i, sheetLinePalms, i18n.M("sg.finding.palms-not-on-cards", "name", p.name, "palms", i18n.M("sg.n.palm-values", "count", n),
				"most", onPalms+sparePalms, "shown", onPalms, "spare", sparePalms, "hand", HandSize))
		}
	}
}

// onCards sums what of a player's distinct completed cards show.
func (v *sheetVerifier) onCards(idx []int, what func(*Card) int) int {
	n, seen := 0, map[int]bool{}
	for _, ix := range idx {
		if !seen[ix] {
			seen[ix] = true
			n += what(&v.cat.Cards[ix])
		}
	}
	return n
}

// unlistedMost returns the most that HandSize cards not listed on the sheet
// can show together.
func (v *sheetVerifier) unlistedMost(listed []bool, what func(*Card) int) int {
	var counts []int
	for ix := range v.cat.Cards {
		if !listed[ix] {
			counts = append(counts, what(&v.cat.Cards[ix]))
		}
	}
	return sumLargest(counts, HandSize)
}

// maxPalmValue is the most a palm can score with catalog cat: 1 plus the
// palm trees on the DisplaySize cards that show the most.
func maxPalmValue(cat *Catalog) int {
	counts := make([]int, len(cat.Cards))
	for i := range cat.Cards {
		counts[i] = cat.Cards[i].Palms.Count()
	}
	return 1 + sumLargest(counts, DisplaySize)
}

// sumLargest sums the n largest of counts (all of them when there are fewer).
func sumLargest(counts []int, n int) int {
	counts = slices.Clone(counts)
	slices.SortFunc(counts, func(a, b int) int { return b - a })
	sum := 0
	for _, c := range counts[:min(n, len(counts))] {
		sum += c
	}
	return sum
}

// sameDigits reports whether a and b differ and are written with the same
// digits, as when two digits are swapped.
func sameDigits(a, b int) bool {
	x, y := []byte(strconv.Itoa(a)), []byte(strconv.Itoa(b))
	slices.Sort(x)
	slices.Sort(y)
	return a != b && string(x) == string(y)
}

// joinOr says "a", "a or b", "a, b or c".
func joinOr(s []i18n.Message) i18n.Message {
	if len(s) == 1 {
		return s[0]
	}
	head := s[0]
	for _, m := range s[1 : len(s)-1] {
		head = i18n.M("sg.list.comma", "a", head, "b", m)
	}
	return i18n.M("sg.list.or", "a", head, "b", s[len(s)-1])
}

// coinsOf says "1 coin", "7 coins".
func coinsOf(n int) i18n.Message { return i18n.M("sg.n.coins", "count", n) }

// nonNil returns s, or an empty slice when s is nil, so that JSON shows [].
func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}
