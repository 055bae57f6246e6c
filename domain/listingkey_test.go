package domain_test

import (
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// keyedGame tells key as its listing key for every seat.
type keyedGame struct {
	domain.Game
	key string
}

func (g keyedGame) AppendListingKey(b []byte, _ int) []byte { return append(b, g.key...) }

// TestAppendListingKey: a game's key stands for its listing whatever the
// version; a game that tells none, or is not ListingKeyed, is keyed by the
// version, so that a count of moves that a take-back brings back never
// finds the listing of another game state.
func TestAppendListingKey(t *testing.T) {
	for _, c := range []struct {
		g       domain.Game
		version int64
		want    string
	}{
		{keyedGame{key: "wait"}, 7, "kwait"},
		{keyedGame{key: "wait"}, 8, "kwait"},
		{keyedGame{}, 7, "v7"},
		{keyedGame{}, 8, "v8"},
		{struct{ domain.Game }{}, 9, "v9"},
	} {
		if got := string(domain.AppendListingKey([]byte("x"), c.g, c.version, 0)); got != "x"+c.want {
			t.Errorf("%T %+v at version %d: key %q, want %q", c.g, c.g, c.version, got, "x"+c.want)
		}
	}
}
