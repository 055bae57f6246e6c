package rulesettest

import (
	"strconv"
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// ListingKeys holds a domain.ListingKeyed game to its promise as a game's
// own test plays it move by move: two states with equal keys for a seat list
// the same for it. It also counts the keys kept from one Check to the next,
// which a test asserts enough of: a key that changes at every move would
// keep the promise and spare the server nothing.
type ListingKeys struct {
	seen map[string]string // seat and key -> the listing
	last map[int]string    // seat -> its key at the last Check
	// Kept counts the seats' keys equal to their key at the last Check;
	// Checked the keys read.
	Kept, Checked int
}

// Check reads the listing key and the listing of every seat of g and of
// the table (seat -1), each read by domain.SeatViewer(seat), and fails t
// when a key seen before lists something else; at is said in the failure.
// No key (the listing keyed by version) is never kept.
func (k *ListingKeys) Check(t testing.TB, g domain.Game, at string) {
	t.Helper()
	kg, ok := g.(domain.ListingKeyed)
	if !ok {
		t.Fatalf("%T is not a domain.ListingKeyed game", g)
	}
	if k.seen == nil {
		k.seen, k.last = map[string]string{}, map[int]string{}
	}
	for seat := -1; seat < g.Players(); seat++ {
		key := string(kg.AppendListingKey(nil, seat))
		l, err := g.LegalMoves(domain.SeatViewer(seat), seat)
		if err != nil {
			t.Fatalf("%s, seat %d: %v", at, seat, err)
		}
		k.Checked++
		if key == "" {
			delete(k.last, seat)
			continue
		}
		sk := strconv.Itoa(seat) + " " + key
		if prev, ok := k.seen[sk]; ok && prev != string(l) {
			t.Fatalf("%s, seat %d: key %q listed\n%s\nand now\n%s", at, seat, key, prev, l)
		}
		k.seen[sk] = string(l)
		if last, ok := k.last[seat]; ok && last == key {
			k.Kept++
		}
		k.last[seat] = key
	}
}

// KeptListingKeys has play play three games of each mode (domain.Digital,
// domain.Physical) to their end, game n of a digital mode with the seed
// given (empty in a physical game), each checked with a ListingKeys of its
// own, and returns per mode the keys kept across a move and the keys read.
func KeptListingKeys(play func(mode string, n uint64, seed string, keys *ListingKeys)) (kept, checked map[string]int) {
	kept, checked = map[string]int{}, map[string]int{}
	for _, mode := range []string{domain.Digital, domain.Physical} {
		for n := range uint64(3) {
			seed := ""
			if mode == domain.Digital {
				seed = "listing-key-" + strconv.FormatUint(n, 10)
			}
			var keys ListingKeys
			play(mode, n, seed, &keys)
			kept[mode] += keys.Kept
			checked[mode] += keys.Checked
		}
	}
	return kept, checked
}
