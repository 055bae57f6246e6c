// Package seatrows reads a game's credentials from its rows of the seats
// table, which both stores keep alike: one row per seat in seat order, and
// the host's under seat Host.
package seatrows

import (
	"fmt"
	"slices"

	"github.com/treasury-games/treasury/domain"
)

// Host is the seat number under which the host credential is stored.
const Host = -1

// Credentials gathers a game's credentials from its rows, read in seat
// order (the host's first).
type Credentials struct {
	c     domain.Credentials
	found bool
}

// Add takes the next row. A seat that does not follow the one before it is
// an error: the rows are not the game's whole set.
func (r *Credentials) Add(seat int, hash string, taken bool) error {
	r.found = true
	switch {
	case seat == Host:
		r.c.HostHash = hash
	case seat == len(r.c.SeatHashes):
		r.c.SeatHashes = append(r.c.SeatHashes, hash)
		r.c.Taken = append(r.c.Taken, taken)
	default:
		return fmt.Errorf("seat %d follows seat %d", seat, len(r.c.SeatHashes)-1)
	}
	return nil
}

// Result returns the credentials, and false when there was no row at all
// (every game has at least its host's: there is no such game). Taken is nil
// when no seat is taken, as CreateGame leaves it.
func (r *Credentials) Result() (domain.Credentials, bool) {
	c := r.c
	if !slices.Contains(c.Taken, true) {
		c.Taken = nil
	}
	return c, r.found
}
