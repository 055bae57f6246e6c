package domain

import (
	"encoding/json"

	"github.com/treasury-games/treasury/domain/i18n"
)

// The table language: what every game says the same way, so that a client
// plays any ruleset without a line of code of its own for it. Who must act
// now is a TableStatus; what a seat or the host may do is a listing of
// LegalMoves, each ready to send or completed from parts by one rule.

// The actors a game waits for.
const (
	ActorSeat = "seat" // a player, at their seat
	ActorHost = "host" // the table's reports in a physical game, made by the host credential
)

// Await is one thing a game waits for: a move of one seat, or a report of
// the host (physical games).
type Await struct {
	Actor  string `json:"actor"`          // ActorSeat or ActorHost
	Seat   *int   `json:"seat,omitempty"` // the seat, for ActorSeat
	Action string `json:"action"`         // the type of the move expected
	Count  int    `json:"count"`          // how many such moves, cards or dice are owed; 1 for one move
}

// TableStatus is where a game stands, in the same words for every ruleset.
type TableStatus struct {
	// Awaiting is who must act now, and on what; empty once the game has
	// ended. Several seats may be awaited at once (simultaneous choices).
	Awaiting []Await `json:"awaiting"`
	// OnTurn is the seat whose turn it is, nil where the seats act together
	// (or the game has ended).
	OnTurn *int `json:"on_turn"`
	// TurnNumber counts the game's turns from 1; 0 before the first turn
	// (setup).
	TurnNumber int `json:"turn_number"`
}

// Tabled is a Game that tells where the table stands: who must act now and
// on what, the seat on turn and the turn counter. Every ruleset of this
// server has it (the conformance suite requires it); the API puts it in
// every game head, listing and status event, and take-backs read the turn
// counter from it. Read it through StatusOf.
type Tabled interface {
	// Table returns the game's TableStatus now: once the game has ended,
	// nobody is awaited.
	Table() TableStatus
}

// StatusOf returns g's table status as the server sends it, Awaiting never
// nil (an empty list once nobody is awaited). A game that is not Tabled
// awaits nobody and is at turn 0.
func StatusOf(g Game) TableStatus {
	var st TableStatus
	if tg, ok := g.(Tabled); ok {
		st = tg.Table()
	}
	if st.Awaiting == nil {
		st.Awaiting = []Await{}
	}
	return st
}

// SeatAwait returns the Await for a seat's action.
func SeatAwait(seat int, action string, count int) Await {
	return Await{Actor: ActorSeat, Seat: &seat, Action: action, Count: count}
}

// HostAwait returns the Await for a report the host owes.
func HostAwait(action string, count int) Await {
	return Await{Actor: ActorHost, Action: action, Count: count}
}

// LegalMove is one entry of a legal-move listing. Without Choose, Move is
// the exact body to post. With Choose, the client completes Move with parts
// from the listing's pool, by the one rule every game follows:
//
//  1. Start from Move. Pick parts of Pools[Choose.Pool] one at a time, each
//     at most once. A part may not be picked while one of its Excludes
//     tokens is among the entry's Holds or the Excludes of a part already
//     picked.
//  2. For each part picked, append the value of each member of its Add to
//     the array of that member in the move (starting an empty array).
//  3. Pick at least Choose.Min and at most Choose.Max parts, each raised by
//     the Owes of the parts picked so far. Stop short of the minimum only
//     when no part may be picked any more.
type LegalMove struct {
	Move  json.RawMessage `json:"move"`
	Label string          `json:"label"`
	// LabelMessage is Label as a message key and parameters; the API renders
	// Label from it in the client's language.
	LabelMessage *i18n.Message `json:"label_message,omitempty"`
	Choose       *Choose       `json:"choose,omitempty"`
	Holds        []string      `json:"holds,omitempty"`
	// Correction marks an entry that puts a slip right (a take-back, a
	// mis-draw report) instead of playing on: a client playing on leaves it.
	Correction bool `json:"correction,omitempty"`
}

// Choose says how many parts complete a LegalMove, and from which pool.
type Choose struct {
	Pool string `json:"pool"`
	Min  int    `json:"min"`
	Max  int    `json:"max"`
}

// Part is one choice that completes a move.
type Part struct {
	Add   map[string]json.RawMessage `json:"add"`
	Label string                     `json:"label"`
	// LabelMessage is Label as a message (see LegalMove).
	LabelMessage *i18n.Message `json:"label_message,omitempty"`
	Excludes     []string      `json:"excludes,omitempty"`
	Owes         int           `json:"owes,omitempty"`
}

// Pools are the parts a listing's entries choose from, by name.
type Pools map[string][]Part

// Entry returns a ready entry for move, labelled by a message.
func Entry(move any, label i18n.Message) LegalMove {
	return LegalMove{Move: MustJSON(move), Label: i18n.Text(label), LabelMessage: &label}
}

// Choice returns a part labelled by a message, adding the members of add
// (name, value pairs).
func Choice(label i18n.Message, add ...any) Part {
	p := newPart(i18n.Text(label), add...)
	p.LabelMessage = &label
	return p
}

// MustJSON marshals v, which must be marshallable.
func MustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("domain: " + err.Error())
	}
	return b
}

// newPart returns a part adding the members of add (name, value pairs).
func newPart(label string, add ...any) Part {
	p := Part{Label: label, Add: map[string]json.RawMessage{}}
	for i := 0; i+1 < len(add); i += 2 {
		p.Add[add[i].(string)] = MustJSON(add[i+1])
	}
	return p
}

// Complete builds a move from entry e by the rule of LegalMove, choosing
// parts with r: uniformly among those that may be picked, and, between the
// minimum and the maximum, stopping with probability one half.
func (e LegalMove) Complete(pools Pools, r interface{ IntN(int) int }) (json.RawMessage, error) {
	if e.Choose == nil {
		return e.Move, nil
	}
	var move map[string]json.RawMessage
	if err := json.Unmarshal(e.Move, &move); err != nil {
		return nil, err
	}
	pool := pools[e.Choose.Pool]
	held := map[string]bool{}
	for _, h := range e.Holds {
		held[h] = true
	}
	picked := make([]bool, len(pool))
	added := map[string][]json.RawMessage{}
	n, owed := 0, 0
	for n < e.Choose.Max+owed {
		var open []int
		for i, p := range pool {
			if !picked[i] && !excluded(p, held) {
				open = append(open, i)
			}
		}
		if len(open) == 0 || (n >= e.Choose.Min+owed && r.IntN(2) == 0) {
			break
		}
		i := open[r.IntN(len(open))]
		picked[i] = true
		p := pool[i]
		for _, x := range p.Excludes {
			held[x] = true
		}
		for k, v := range p.Add {
			added[k] = append(added[k], v)
		}
		n++
		owed += p.Owes
	}
	for k, vs := range added {
		move[k] = MustJSON(vs)
	}
	return MustJSON(move), nil
}

func excluded(p Part, held map[string]bool) bool {
	for _, x := range p.Excludes {
		if held[x] {
			return true
		}
	}
	return false
}
