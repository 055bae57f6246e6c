package seeded_test

import (
	"slices"
	"testing"

	"github.com/treasury-games/treasury/domain/seeded"
)

// TestStreams pins the source: the same domain, seed and label give the same
// draws forever (a game's record must re-deal the same cards), and another
// label, seed or domain gives others.
func TestStreams(t *testing.T) {
	deal := func(domain, seed, label string) []int {
		s := make([]int, 10)
		for i := range s {
			s[i] = i
		}
		seeded.Shuffle(seeded.New(domain, seed, label), s)
		return s
	}
	a := deal("game/v1", "seed", "deal")
	if want := []int{1, 0, 3, 5, 6, 9, 8, 4, 2, 7}; !slices.Equal(a, want) {
		t.Errorf("the shuffle of seed %q is %v; it was %v: a change of the source re-deals every stored game", "seed", a, want)
	}
	for _, other := range [][]int{deal("game/v2", "seed", "deal"), deal("game/v1", "seed2", "deal"), deal("game/v1", "seed", "deck")} {
		if slices.Equal(a, other) {
			t.Error("another domain, seed or label shuffles the same")
		}
	}
	s := seeded.New("game/v1", "seed", "dice")
	counts := make([]int, 6)
	for range 60000 {
		counts[s.Uniform(6)]++
	}
	for face, n := range counts {
		if n < 9500 || n > 10500 {
			t.Errorf("face %d came up %d times in 60000 rolls", face, n)
		}
	}
}
