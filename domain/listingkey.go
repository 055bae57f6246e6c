package domain

import "strconv"

// ListingKeyed is a Game that can tell, more cheaply than listing, when what
// a seat may do may have changed: a move of another seat in a turn where the
// seat already acted, or one made while it waits, leaves its listing as it
// was, and the server then keeps the listing it built instead of building
// it again (four listings after every move of a table of four following
// the game's events).
type ListingKeyed interface {
	// AppendListingKey appends to b the listing key of seat (-1 the table's
	// reports): two states of the game with equal keys for a seat list the
	// same moves for it, to every viewer (LegalMoves gives the same bytes).
	// A key may change when the listing does not (it is only built again).
	// Nothing appended means the listing may change with any move: it is
	// then keyed by the game's version, which, unlike a count of the moves
	// standing, a take-back never brings back.
	AppendListingKey(b []byte, seat int) []byte
}

// AppendListingKey appends to b g's listing key for seat when g is
// ListingKeyed and tells one, else version: a listing is then built once
// per version.
func AppendListingKey(b []byte, g Game, version int64, seat int) []byte {
	if k, ok := g.(ListingKeyed); ok {
		n := len(b)
		if b = k.AppendListingKey(append(b, 'k'), seat); len(b) > n+1 {
			return b
		}
		b = b[:n]
	}
	return strconv.AppendInt(append(b, 'v'), version, 10)
}
