package rulesettest

import (
	"encoding/json"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// SamePlainJSON fails t unless got, what a game's hand-written encoder
// wrote (a listing, say), is what json.Marshal writes of plain, as it is
// and localised in every language: the test that holds a game's encoder
// to the plain version (STYLE.md, "Speed where measured").
func SamePlainJSON(t testing.TB, what string, got []byte, plain any) {
	t.Helper()
	want, err := json.Marshal(plain)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if string(got) != string(want) {
		t.Fatalf("%s: written by hand\n%s\njson.Marshal\n%s", what, got, want)
	}
	for _, lang := range i18n.Languages() {
		if a, b := i18n.Localize(lang, got), i18n.Localize(lang, want); string(a) != string(b) {
			t.Fatalf("%s, %s: written by hand, localised\n%s\nplain\n%s", what, lang, a, b)
		}
	}
}

// SamePlainSnapshot fails t unless g's Snapshot, when it is written by
// hand, is what json.Marshal writes of g, and the game restore reads back
// from it writes the same snapshot.
func SamePlainSnapshot[G interface{ Snapshot() ([]byte, error) }](t testing.TB, what string, g G, restore func([]byte) (G, error)) {
	t.Helper()
	snap, err := g.Snapshot()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	SamePlainJSON(t, what, snap, g)
	back, err := restore(snap)
	if err != nil {
		t.Fatalf("%s: restored: %v", what, err)
	}
	if again, _ := back.Snapshot(); string(again) != string(snap) {
		t.Fatalf("%s: restored\n%s\nwas\n%s", what, again, snap)
	}
}

// BenchmarkListings builds and encodes, one position after another, the
// listing of the seat on turn (onTurn) as the server answers it to that
// seat (GET .../legal-moves and the legal_moves event).
func BenchmarkListings[G domain.Game](b *testing.B, positions []G, onTurn func(G) int) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		g := positions[i%len(positions)]
		seat := onTurn(g)
		if _, err := g.LegalMoves(domain.SeatViewer(seat), seat); err != nil {
			b.Fatal(err)
		}
	}
}
