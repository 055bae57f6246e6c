package main

import (
	"math/rand/v2"

	"github.com/treasury-games/treasury/api/client"
)

// A picker chooses one of the moves a legal-moves answer lists, or none when
// it asks for nothing now. It reads only that answer: it knows no rule of
// the game, only how its ruleset writes the listing down. Adding a ruleset
// to the bot is adding its picker here.
type picker func(l client.LegalMoves, r *rand.Rand) (move any, ok bool, err error)

var pickers = map[string]picker{
	"silver-and-gold": pickSilverGold,
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
