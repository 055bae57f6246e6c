package luckytreasurehunter

import (
	"math"
	"slices"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/gamekit"
)

// Option is one move a seat (or the table) may make now, in the move's own
// fields, with what a player weighs it by.
type Option struct {
	// LegalMove is the option in the table language: the move to send
	// (completed from Legal.Pools for the host's reports) and its label.
	domain.LegalMove
	Type     string `json:"type"`
	Seat     *int   `json:"seat,omitempty"`
	Treasure string `json:"treasure,omitempty"` // place; steal: the set's type
	Count    int    `json:"count,omitempty"`    // place
	Owner    *int   `json:"owner,omitempty"`    // steal: omitted for the middle
	Set      *int   `json:"set,omitempty"`      // steal
	Size     int    `json:"size,omitempty"`     // steal: cards in the set, dice to roll
	Dice     int    `json:"dice,omitempty"`     // reroll: dice re-rolled; roll: dice to report
	Cards    int    `json:"cards,omitempty"`    // lth_middle: cards to report
	// Chance is the probability that the steal ends with the set taken,
	// counting the seat's matching hand cards and unused captain, re-rolls
	// used as well as they can be. Only the seat itself reads it in a
	// digital game (it depends on the hand).
	Chance *float64 `json:"chance,omitempty"`
	// ChanceWithoutCards is the same probability with no matching hand cards
	// (only the captain, if unused): what anyone at the table can work out.
	ChanceWithoutCards *float64 `json:"chance_without_cards,omitempty"`
	// json is the option as appendOption writes it, when it was written
	// once for every listing (placeOptions).
	json []byte
}

// Legal is what one seat, or the table, may do now.
type Legal struct {
	Ruleset string `json:"ruleset"` // "lucky-treasure-hunter"
	Seat    int    `json:"seat"`    // -1: the table's reports
	// Step is what the game waits for from this seat: "place", "steal",
	// "decide", "roll" (the table reports dice), "middle" (the table
	// reports the first middle cards), or "wait".
	Step  string       `json:"step"`
	Moves []Option     `json:"moves"`
	Pools domain.Pools `json:"pools"`
}

func chance(v float64) *float64 {
	r := math.Round(v*1e6) / 1e6
	return &r
}

// LegalMoves lists what seat may do now as viewer v may know it: a seat's
// hand-dependent moves and chances only to that seat in a digital game.
func (g *Game) LegalMoves(v domain.Viewer, seat int) Legal {
	l := g.legalMoves(v, seat)
	l.Pools = domain.Pools{}
	g.entries(&l)
	return l
}

// legalMoves offers every move the rules of move.go accept now from seat
// (or the table, seat -1) made by the actor viewer v holds: each candidate
// is let through by the rule its move is checked with.
func (g *Game) legalMoves(v domain.Viewer, seat int) Legal {
	l := Legal{Ruleset: RulesetName, Seat: seat, Step: "wait", Moves: []Option{}}
	if g.Phase == PhaseEnded {
		return l
	}
	actor := domain.Actor{Host: v.Host, Seat: v.Seat}
	if seat == -1 {
		if !g.reportsFrom(actor) {
			return l
		}
		if g.checkMiddleReport() == nil {
			l.Step = "middle"
			l.Moves = append(l.Moves, Option{Type: MoveMiddle, Cards: MiddleAtStart})
		}
		if g.checkRollReport() == nil {
			l.Step = "roll"
			l.Moves = append(l.Moves, Option{Type: MoveRoll, Dice: g.Steal.Pending})
		}
		if len(g.misdrawParts()) > 0 {
			l.Moves = append(l.Moves, Option{Type: MoveMisdraw})
		}
		return l
	}
	if seat < 0 || seat >= len(g.Players) || g.Turn != seat || g.Phase == PhaseSetup || g.Phase == PhaseRoll {
		return l
	}
	l.Step = string(g.Phase)
	if gamekit.CheckSeat(actor, seat, len(g.Players)) != nil {
		return l // nobody else may act for the seat
	}
	own := g.Mode == Physical || (!v.Host && v.Seat == seat) // may the listing use the hand?
	p := &g.Players[seat]
	s := SeatPtr(seat)
	if g.awaits(seat, PhasePlace) && g.mayPlace(actor, seat) == nil {
		var most [NumTreasures]int
		total := 0
		for t := range NumTreasures {
			most[t] = g.placeMost(seat, t)
			total += most[t]
		}
		l.Moves = slices.Grow(l.Moves, total) // an option is large: grown once, not by doubling
		for t := Treasure(0); t < NumTreasures; t++ {
			for n := 1; n <= most[t]; n++ {
				l.Moves = append(l.Moves, Option{Type: MovePlace, Seat: s, Treasure: t.String(), Count: n})
			}
		}
	}
	if g.awaits(seat, PhaseSteal) {
		sets := 0
		for owner := Middle; owner < len(g.Players); owner++ {
			sets += len(g.setsOf(owner)) // the candidates, the seat's own among them
		}
		l.Moves = slices.Grow(l.Moves, sets)
		for owner := Middle; owner < len(g.Players); owner++ {
			if owner == seat {
				continue // the candidates: the sets of the middle and of the other seats
			}
			for i, st := range g.setsOf(owner) {
				if _, err := g.checkSteal(seat, owner, &i); err != nil {
					continue
				}
				o := Option{Type: MoveSteal, Seat: s, Owner: ownerPtr(owner), Set: new(i), Treasure: st.Treasure.String(), Size: st.Size,
					ChanceWithoutCards: chance(StealChance(st.Size, g.PirateFaces, 0, !p.CaptainUsed))}
				if own && g.Mode == Digital {
					o.Chance = chance(StealChance(st.Size, g.PirateFaces, p.Hand[st.Treasure], !p.CaptainUsed))
				}
				l.Moves = append(l.Moves, o)
			}
		}
	}
	if g.awaits(seat, PhaseDecide) && g.mayReroll(actor, seat) == nil {
		st := g.Steal
		for j := 1; j <= g.rerollMost(seat); j++ {
			o := Option{Type: MoveReroll, Seat: s, Dice: j,
				ChanceWithoutCards: chance(RerollChance(st.Failed, j, g.PirateFaces, j, !p.CaptainUsed))}
			if g.Mode == Digital {
				o.Chance = chance(RerollChance(st.Failed, j, g.PirateFaces, p.Hand[st.Treasure], !p.CaptainUsed))
			}
			l.Moves = append(l.Moves, o)
		}
	}
	if g.awaits(seat, PhaseDecide) && g.checkCaptain(seat) == nil {
		o := Option{Type: MoveCaptain, Seat: s, ChanceWithoutCards: chance(CaptainChance(g.Steal.Failed, g.PirateFaces, 0))}
		if own && g.Mode == Digital {
			o.Chance = chance(CaptainChance(g.Steal.Failed, g.PirateFaces, p.Hand[g.Steal.Treasure]))
		}
		l.Moves = append(l.Moves, o)
	}
	if g.awaits(seat, PhaseDecide) {
		l.Moves = append(l.Moves, Option{Type: MoveStop, Seat: s})
	}
	return l
}

// AppendListingKey appends seat's listing key (domain.ListingKeyed): a seat
// the game does not wait for (another seat's turn, the setup, the table's
// roll, the end) lists nothing but "wait", whoever reads it, so the other
// seats' moves leave its key as it was; the seat on turn and the table
// tell none (keyed by the game's version). The conformance suite holds
// equal keys to equal listings after every move.
func (g *Game) AppendListingKey(b []byte, seat int) []byte {
	if seat >= 0 && seat < len(g.Players) && (g.Phase == PhaseEnded || g.Turn != seat || g.Phase == PhaseSetup || g.Phase == PhaseRoll) {
		return append(b, "wait"...)
	}
	return b
}
