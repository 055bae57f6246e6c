package client

import (
	"encoding/json"
	"fmt"

	"github.com/treasury-games/treasury/domain"
)

// Listing is any ruleset's legal-move listing read in the table language
// (domain.LegalMove): a client that knows no rule of the game plays from it
// alone.
type Listing struct {
	Version  int64              `json:"version"`
	Seat     int                `json:"seat"` // -1: the host's reports
	Awaiting []domain.Await     `json:"awaiting"`
	Moves    []domain.LegalMove `json:"moves"`
	Pools    domain.Pools       `json:"pools"`
}

// Owed reports whether the listed seat (the host, for seat -1) is among
// those the game awaits: its moves are then owed, not optional.
func (l Listing) Owed() bool {
	for _, a := range l.Awaiting {
		if (l.Seat < 0 && a.Actor == domain.ActorHost) || (a.Actor == domain.ActorSeat && a.Seat != nil && *a.Seat == l.Seat) {
			return true
		}
	}
	return false
}

// Pick chooses one of the listing's moves at random and completes it by
// the rule of domain.LegalMove (LegalMove.Complete: parts of the entry's
// pool at random, stopping between the minimum and the maximum with
// probability one half). It returns the move to post and its type; ok is
// false when the listing owes nothing now (the seat is not awaited, or only
// corrections are listed: a take-back or a mis-draw report puts a slip
// right, a player playing on never chooses it).
func (l Listing) Pick(r interface{ IntN(int) int }) (move json.RawMessage, typ string, ok bool, err error) {
	if !l.Owed() {
		return nil, "", false, nil
	}
	forward := make([]domain.LegalMove, 0, len(l.Moves))
	for _, e := range l.Moves {
		if !e.Correction {
			forward = append(forward, e)
		}
	}
	if len(forward) == 0 {
		return nil, "", false, nil
	}
	return complete(forward[r.IntN(len(forward))], l.Pools, r, jsonType)
}

// complete completes the chosen entry e (LegalMove.Complete) and returns it
// with its type, read by typeOf.
func complete(e domain.LegalMove, pools domain.Pools, r interface{ IntN(int) int }, typeOf func(json.RawMessage) (string, error)) (move json.RawMessage, typ string, ok bool, err error) {
	move, err = e.Complete(pools, r)
	if err == nil {
		typ, err = typeOf(move)
	}
	if err != nil {
		return nil, "", false, fmt.Errorf("a listed move: %w", err)
	}
	return move, typ, true, nil
}

// jsonType is the type of a completed move, read by encoding/json.
func jsonType(move json.RawMessage) (string, error) {
	var t struct {
		Type string `json:"type"`
	}
	err := json.Unmarshal(move, &t)
	return t.Type, err
}
