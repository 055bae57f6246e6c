package luckytreasurehunter

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// exact is the chance of a steal worked out by enumerating every face of
// every die rolled (each die has 6 faces, the first pf of them pirates) and
// trying every choice after a failed roll: re-roll any non-empty subset of
// the failed dice for as many cards, turn the captain, or stop. It knows
// nothing of binomials or of which choices are best.
type exact struct {
	pf   int
	memo map[[3]int]float64
}

func (e *exact) state(failed, cards int, captain bool) float64 {
	if failed == 0 {
		return 1
	}
	key := [3]int{failed, cards, b2i(captain)}
	if v, ok := e.memo[key]; ok {
		return v
	}
	best := 0.0 // stop
	// Every subset of the failed dice: only its size matters to the dice,
	// but enumerate the subsets as a player would choose them.
	for mask := 1; mask < 1<<failed; mask++ {
		n := 0
		for b := mask; b > 0; b &= b - 1 {
			n++
		}
		if n <= cards {
			best = math.Max(best, e.roll(n, func(p int) float64 { return e.state(failed-p, cards-n, captain) }))
		}
	}
	if captain {
		best = math.Max(best, e.roll(failed, func(p int) float64 { return e.state(failed-p, cards, false) }))
	}
	e.memo[key] = best
	return best
}

// roll averages then(pirates) over all 6^n faces of n dice.
func (e *exact) roll(n int, then func(pirates int) float64) float64 {
	total, count := 0.0, 0
	faces := make([]int, n)
	for {
		p := 0
		for _, f := range faces {
			if f < e.pf {
				p++
			}
		}
		total += then(p)
		count++
		i := 0
		for i < n && faces[i] == 5 {
			faces[i] = 0
			i++
		}
		if i == n {
			break
		}
		faces[i]++
	}
	return total / float64(count)
}

func TestOddsAgainstEnumeration(t *testing.T) {
	for pf := 1; pf <= 5; pf++ {
		e := &exact{pf: pf, memo: map[[3]int]float64{}}
		for size := 1; size <= SetSize; size++ {
			for cards := 0; cards <= HandSize; cards++ {
				for _, captain := range []bool{false, true} {
					name := fmt.Sprintf("pf%d size%d cards%d captain%v", pf, size, cards, captain)
					want := e.roll(size, func(p int) float64 { return e.state(size-p, cards, captain) })
					assert.InDelta(t, want, StealChance(size, pf, cards, captain), 1e-12, name)
					for failed := 1; failed <= size; failed++ {
						assert.InDelta(t, e.state(failed, cards, captain), ContinueChance(failed, pf, cards, captain), 1e-12, name)
					}
				}
			}
		}
	}
	// Without re-rolls a steal is one roll: (pf/6)^size.
	assert.InDelta(t, 1.0/32, StealChance(5, 3, 0, false), 1e-12)
	// One die, one card, no captain: 1/2 + 1/2 * 1/2.
	assert.InDelta(t, 0.75, StealChance(1, 3, 1, false), 1e-12)
}
