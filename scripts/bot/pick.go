package main

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"

	"github.com/treasury-games/treasury/api/client"
)

// A picker chooses one of the moves a legal-moves answer lists, or none when
// it asks for nothing now. It reads only that answer: it knows no rule of
// the game, only how its ruleset writes the listing down. Adding a ruleset
// to the bot is adding its picker here.
type picker func(l client.LegalMoves, r *rand.Rand) (move any, ok bool, err error)

var pickers = map[string]picker{
	"silver-and-gold":       pickSilverGold,
	"lucky-treasure-hunter": pickLuckyTreasureHunter,
	"colorful-treasure":     pickColorfulTreasure,
}

// pickSilverGold chooses a Silver & Gold move from SilverGoldLegal: 2 random
// cards to keep; the placement worth most (coins, palms, then the fewest red
// crosses to pay for), with the extra boxes its red crosses owe taken from
// free_boxes (a red cross among them owes one more); a random replacement;
// a random report for the table.
func pickSilverGold(l client.LegalMoves, r *rand.Rand) (any, bool, error) {
	sg, err := l.AsSilverGoldLegal()
	if err != nil {
		return nil, false, err
	}
	one := func(ids []string) string { return ids[r.IntN(len(ids))] }
	switch sg.Action {
	case client.SilverGoldLegalActionKeep:
		if len(sg.KeepFrom) < 2 {
			return nil, false, nil
		}
		i := r.Perm(len(sg.KeepFrom))
		cards := []string{sg.KeepFrom[i[0]], sg.KeepFrom[i[1]]}
		return client.SilverGoldKeep{Type: client.SilverGoldKeepTypeKeep, Seat: sg.Seat, Cards: &cards}, true, nil
	case client.SilverGoldLegalActionCross:
		if sg.Crossed { // crossed already; a new cross would only replace it
			return nil, false, nil
		}
		options := append(append([]client.SilverGoldPlacement(nil), sg.Placements...), sg.SingleBoxes...)
		if len(options) == 0 {
			return nil, false, nil
		}
		best, bestScore := options[0], -1<<30
		for _, p := range options {
			score := 4*p.Coins + 3*p.Palms + 2*len(p.Boxes) - p.RedCrosses + r.IntN(2)
			if score > bestScore {
				best, bestScore = p, score
			}
		}
		m := client.SilverGoldCross{Type: client.SilverGoldCrossTypeCross, Seat: sg.Seat, Card: best.Card, Boxes: best.Boxes}
		if extra := extras(sg.FreeBoxes, best, r); len(extra) > 0 {
			m.Extra = &extra
		}
		return m, true, nil
	case client.SilverGoldLegalActionTake:
		if len(sg.TakeFrom) > 0 && (!sg.Deck || r.IntN(3) > 0) {
			card := one(sg.TakeFrom)
			return client.SilverGoldTake{Type: client.SilverGoldTakeTypeTake, Seat: sg.Seat, From: client.SilverGoldTakeFromDisplay, Card: &card}, true, nil
		}
		m := client.SilverGoldTake{Type: client.SilverGoldTakeTypeTake, Seat: sg.Seat, From: client.SilverGoldTakeFromDeck}
		if len(sg.DeckCards) > 0 { // a physical game names the card drawn
			card := one(sg.DeckCards)
			m.Card = &card
		}
		return m, true, nil
	case client.SilverGoldLegalActionReveal:
		e := sg.RevealFrom[r.IntN(len(sg.RevealFrom))]
		return client.SilverGoldReveal{Type: client.SilverGoldRevealTypeReveal, Expedition: client.SilverGoldRevealExpedition(e)}, true, nil
	case client.SilverGoldLegalActionDisplay:
		return client.SilverGoldDisplay{Type: client.SilverGoldDisplayTypeDisplay, Card: one(sg.DeckCards)}, true, nil
	}
	return nil, false, nil // wait
}

// extras pays a placement's red crosses with boxes from free_boxes, blank
// and coin boxes first; a red cross taken owes one more box.
func extras(free []client.SilverGoldFreeCard, p client.SilverGoldPlacement, r *rand.Rand) []client.SilverGoldExtra {
	used := map[[3]any]bool{}
	for _, b := range p.Boxes {
		used[[3]any{p.Card, b[0], b[1]}] = true
	}
	var plain, crosses []client.SilverGoldExtra
	for _, fc := range free {
		for _, fb := range fc.Boxes {
			if used[[3]any{fc.Card, fb.Box[0], fb.Box[1]}] {
				continue
			}
			e := client.SilverGoldExtra{Card: fc.Card, Box: fb.Box}
			if fb.Symbol == client.SilverGoldFreeBoxSymbolCross {
				crosses = append(crosses, e)
			} else {
				plain = append(plain, e)
			}
		}
	}
	r.Shuffle(len(plain), func(i, j int) { plain[i], plain[j] = plain[j], plain[i] })
	var out []client.SilverGoldExtra
	for owed := p.RedCrosses; owed > 0; owed-- {
		switch {
		case len(plain) > 0:
			out, plain = append(out, plain[0]), plain[1:]
		case len(crosses) > 0:
			out, crosses = append(out, crosses[0]), crosses[1:]
			owed++ // the red cross just crossed owes one more
		default:
			return out // no box left: the rest of the debt lapses
		}
	}
	return out
}

// lthFields are, per move type, the members a Lucky Treasure Hunter move
// takes of a listed option (the listing adds what a player weighs: the
// treasure and size of a set, the chances).
var lthFields = map[string][]string{
	"place":   {"type", "seat", "treasure", "count"},
	"steal":   {"type", "seat", "owner", "set"},
	"reroll":  {"type", "seat", "dice"},
	"captain": {"type", "seat"},
	"stop":    {"type", "seat"},
}

// pickLuckyTreasureHunter chooses one of the listed moves: the steal most
// likely to succeed, otherwise any listed move at random. In a physical
// game it is also the table: the listing says how many dice to report
// (roll) or middle cards to lay out (lth_middle), and the bot rolls them
// itself (a pirate on half the faces) or deals them at random, as the real
// dice and cards would.
func pickLuckyTreasureHunter(l client.LegalMoves, r *rand.Rand) (any, bool, error) {
	lt, err := l.AsLuckyTreasureHunterLegal()
	if err != nil {
		return nil, false, err
	}
	for _, o := range lt.Moves {
		switch {
		case o.Type == "roll" && o.Dice != nil:
			faces := make(client.LuckyTreasureHunterFaces, *o.Dice)
			for i := range faces {
				faces[i] = client.LuckyTreasureHunterFaceBlank
				if r.IntN(2) == 0 {
					faces[i] = client.LuckyTreasureHunterFacePirate
				}
			}
			return client.LuckyTreasureHunterRoll{Type: "roll", Faces: faces}, true, nil
		case o.Type == "lth_middle" && o.Cards != nil:
			treasures := []client.LuckyTreasureHunterTreasure{"silver", "gold", "pearl", "ruby", "jade"}
			cards := make([]client.LuckyTreasureHunterTreasure, *o.Cards)
			for i := range cards {
				cards[i] = treasures[r.IntN(len(treasures))]
			}
			return client.LuckyTreasureHunterMiddle{Type: "lth_middle", Cards: cards}, true, nil
		}
	}
	var options []map[string]any
	best, bestChance := -1, -1.0
	for _, o := range lt.Moves {
		b, err := json.Marshal(o)
		if err != nil {
			return nil, false, err
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, false, err
		}
		if _, ok := lthFields[string(o.Type)]; !ok {
			continue
		}
		if o.Type == "steal" && o.Chance != nil && *o.Chance > bestChance {
			best, bestChance = len(options), *o.Chance
		}
		options = append(options, m)
	}
	if len(options) == 0 {
		return nil, false, nil
	}
	pick := options[r.IntN(len(options))]
	if best >= 0 && r.IntN(4) > 0 {
		pick = options[best]
	}
	move := map[string]any{}
	for _, f := range lthFields[pick["type"].(string)] {
		if v, ok := pick[f]; ok {
			move[f] = v
		}
	}
	return move, true, nil
}

// pickColorfulTreasure plays the seat on turn from ColorfulTreasureLegal: a
// random flip of the listed cells, the largest listed take, a random listed
// theft, a listed action token, or the end of the turn. It uses no action
// token (the advanced variant's peeks and the like). In a physical game a
// flip also reports what each card shows: one of the kinds the listing
// gives for its place, never two alike in one column (the real cards of a
// wonder are all different).
func pickColorfulTreasure(l client.LegalMoves, r *rand.Rand) (any, bool, error) {
	raw, err := l.MarshalJSON()
	if err != nil {
		return nil, false, err
	}
	var ct struct {
		Seat int `json:"seat"`
		Flip *struct {
			Count int `json:"count"`
			Cells []struct {
				Column int      `json:"column"`
				Row    int      `json:"row"`
				Shows  []string `json:"shows"`
			} `json:"cells"`
		} `json:"flip"`
		Collect [][]string       `json:"collect"`
		Rob     []map[string]any `json:"rob"`
		Claim   []int            `json:"claim"`
		End     bool             `json:"end"`
	}
	if err := json.Unmarshal(raw, &ct); err != nil {
		return nil, false, err
	}
	switch {
	case ct.Flip != nil && ct.Flip.Count <= len(ct.Flip.Cells):
		cells := ct.Flip.Cells
		for try := 0; try < 20; try++ {
			var cards []map[string]int
			var shows []string
			used := map[string]bool{} // column and kind reported in this flip
			for _, i := range r.Perm(len(cells))[:ct.Flip.Count] {
				c := cells[i]
				cards = append(cards, map[string]int{"column": c.Column, "row": c.Row})
				var free []string
				for _, k := range c.Shows {
					if !used[strconv.Itoa(c.Column)+k] {
						free = append(free, k)
					}
				}
				if len(free) > 0 {
					k := free[r.IntN(len(free))]
					used[strconv.Itoa(c.Column)+k] = true
					shows = append(shows, k)
				}
			}
			move := map[string]any{"type": "flip", "seat": ct.Seat, "cards": cards}
			if len(shows) == 0 && cells[0].Shows == nil {
				return move, true, nil // digital: the server turns the cards over
			}
			if len(shows) == len(cards) {
				move["shows"] = shows
				return move, true, nil
			}
		}
		return nil, false, nil
	case len(ct.Collect) > 0:
		best := ct.Collect[r.IntN(len(ct.Collect))]
		for _, take := range ct.Collect {
			if len(take) > len(best) {
				best = take
			}
		}
		return map[string]any{"type": "collect", "seat": ct.Seat, "take": best}, true, nil
	case len(ct.Rob) > 0:
		move := map[string]any{"type": "rob", "seat": ct.Seat}
		for k, v := range ct.Rob[r.IntN(len(ct.Rob))] {
			move[k] = v
		}
		return move, true, nil
	case len(ct.Claim) > 0:
		return map[string]any{"type": "ct_claim", "seat": ct.Seat, "token": ct.Claim[r.IntN(len(ct.Claim))]}, true, nil
	case ct.End:
		return map[string]any{"type": "ct_end", "seat": ct.Seat}, true, nil
	}
	return nil, false, nil
}
