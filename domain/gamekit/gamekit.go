// Package gamekit is what every game's adapter does alike, written once:
// seat checks, the ranking with its ties and "decided by", replaying a
// game's moves. A game keeps its own words (its decided_by codes and
// messages, its move types); what it shares with the others is here.
package gamekit

import (
	"bytes"
	"encoding/json"

	"github.com/treasury-games/treasury/domain"
)

// SeatPtr returns a pointer to seat (a move's optional seat member).
func SeatPtr(seat int) *int { return &seat }

// NoSuchSeat is the error for seat, which a game of players seats does not
// have: Invalid, "seat 5 does not exist; this game has seats 0 to 3".
func NoSuchSeat(seat, players int) error {
	return domain.Fail(domain.Invalid, "table.invalid.no-such-seat", "seat", seat, "last", players-1)
}

// CheckSeat checks that a game of players seats has seat and that actor
// may act for it: the host for any seat, a seat for itself only
// (Forbidden: "your credential acts for seat 1, not seat 2").
func CheckSeat(actor domain.Actor, seat, players int) error {
	if seat < 0 || seat >= players {
		return NoSuchSeat(seat, players)
	}
	if !actor.Host && actor.Seat != seat {
		return domain.Fail(domain.Forbidden, "table.forbidden.other-seat", "own", actor.Seat, "seat", seat)
	}
	return nil
}

// MoveSeat returns the seat a move of type typ names, checked by CheckSeat:
// Invalid when the move names none ("a keep move names the seat it is for").
func MoveSeat(actor domain.Actor, seat *int, players int, typ string) (int, error) {
	if seat == nil {
		return 0, domain.Fail(domain.Invalid, "table.invalid.no-seat", "type", typ)
	}
	return *seat, CheckSeat(actor, *seat, players)
}

// CheckListingSeat checks the seat a legal-move listing is asked for: a
// seat of the game, or -1 for the host's reports.
func CheckListingSeat(seat, players int) error {
	if seat < -1 || seat >= players {
		return NoSuchSeat(seat, players)
	}
	return nil
}

// Replay decodes each of moves with decode and applies it with play, in
// order, stopping at the first move either refuses: it returns the 1-based
// index of that move with the error (0 and nil when all applied), as
// domain.Ruleset.Replay does.
func Replay[M any](moves []domain.ReplayMove, decode func([]byte) (M, error), play func(domain.Actor, *M) error) (int, error) {
	for i, rm := range moves {
		if _, err := Apply(playFunc[M](play), rm.Actor, rm.Move, decode); err != nil {
			return i + 1, err
		}
	}
	return 0, nil
}

// playFunc is a function that applies moves, as a Player.
type playFunc[M any] func(domain.Actor, *M) error

// Play calls f.
func (f playFunc[M]) Play(actor domain.Actor, m *M) error { return f(actor, m) }

// DecodeSheet reads a paper score sheet b into v, refusing members v does not
// have: a sheet that cannot be read is Invalid, told by the game's message
// key with the decoder's reason as its parameter "error".
func DecodeSheet(b []byte, v any, key string) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return domain.Fail(domain.Invalid, key, "error", err.Error())
	}
	return nil
}

// VerifySheet reads a paper score sheet S (as DecodeSheet, with the game's
// message key) and encodes (JSON) what verify finds on it.
func VerifySheet[S, R any](b []byte, key string, verify func(S) (R, error)) ([]byte, error) {
	var s S
	if err := DecodeSheet(b, &s, key); err != nil {
		return nil, err
	}
	res, err := verify(s)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}
