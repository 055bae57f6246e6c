package luckytreasurehunter

import "math"

// The chance that a steal succeeds: every die of the set ends on the pirate,
// with re-rolls used as well as they can be. A state of a steal is f failed
// dice, k matching hand cards left and whether the captain is unused; from
// it the seat may stop (chance 0), re-roll j of the failed dice for j cards
// (1 ≤ j ≤ min(f, k)), or turn the captain to re-roll all f. The chance of a
// state is the best of these; each die shows the pirate with probability
// pirate_faces/6, independently.

// odds[pf][f][k][c] is the chance from a state with f failed dice, k
// matching cards and the captain unused when c is 1, for pf pirate faces.
var odds [6][SetSize + 1][HandSize + 1][2]float64

// binom[j][s] is C(j, s).
var binom [SetSize + 1][SetSize + 1]float64

// outcomes[pf][n][s] is the chance that s of n dice show the pirate, for pf
// pirate faces.
var outcomes [6][SetSize + 1][SetSize + 1]float64

func init() {
	for j := 0; j <= SetSize; j++ {
		binom[j][0] = 1
		for s := 1; s <= j; s++ {
			binom[j][s] = binom[j-1][s-1]
			if s <= j-1 {
				binom[j][s] += binom[j-1][s]
			}
		}
	}
	for pf := 1; pf <= 5; pf++ {
		p := float64(pf) / 6
		for n := 0; n <= SetSize; n++ {
			for s := 0; s <= n; s++ {
				outcomes[pf][n][s] = binom[n][s] * math.Pow(p, float64(s)) * math.Pow(1-p, float64(n-s))
			}
		}
	}
	for pf := 1; pf <= 5; pf++ {
		t := &odds[pf]
		p := float64(pf) / 6
		for c := 0; c < 2; c++ {
			for k := 0; k <= HandSize; k++ {
				t[0][k][c] = 1
				for f := 1; f <= SetSize; f++ {
					best := 0.0
					for j := 1; j <= min(f, k); j++ {
						best = math.Max(best, rerollFrom(t, p, f, j, k, c))
					}
					if c == 1 {
						best = math.Max(best, captainFrom(t, p, f, k))
					}
					t[f][k][c] = best
				}
			}
		}
	}
}

// outcome is the chance that s of n dice show the pirate, each with
// probability p = pf/6.
func outcome(p float64, n, s int) float64 {
	return outcomes[int(math.Round(p*6))][n][s]
}

func rerollFrom(t *[SetSize + 1][HandSize + 1][2]float64, p float64, f, j, k, c int) float64 {
	v := 0.0
	for s := 0; s <= j; s++ {
		v += outcome(p, j, s) * t[f-s][k-j][c]
	}
	return v
}

func captainFrom(t *[SetSize + 1][HandSize + 1][2]float64, p float64, f, k int) float64 {
	v := 0.0
	for s := 0; s <= f; s++ {
		v += outcome(p, f, s) * t[f-s][k][0]
	}
	return v
}

func clampCards(k int) int { return max(0, min(k, HandSize)) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// StealChance is the chance that a steal of a set of size cards succeeds,
// for pf pirate faces, with cards matching hand cards and the captain unused
// or not, re-rolls used as well as they can be.
func StealChance(size, pf, cards int, captain bool) float64 {
	if pf < 1 || pf > 5 || size < 1 || size > SetSize {
		return 0
	}
	p := float64(pf) / 6
	k, c := clampCards(cards), b2i(captain)
	v := 0.0
	for s := 0; s <= size; s++ {
		v += outcome(p, size, s) * odds[pf][size-s][k][c]
	}
	return v
}

// ContinueChance is the chance of a failed steal with failed dice still
// showing blank, played on as well as it can be.
func ContinueChance(failed, pf, cards int, captain bool) float64 {
	if pf < 1 || pf > 5 || failed < 0 || failed > SetSize {
		return 0
	}
	return odds[pf][failed][clampCards(cards)][b2i(captain)]
}

// RerollChance is the chance of a failed steal after re-rolling dice of its
// failed dice for as many of the cards matching hand cards.
func RerollChance(failed, dice, pf, cards int, captain bool) float64 {
	if pf < 1 || pf > 5 || dice < 1 || dice > failed || failed > SetSize || dice > cards {
		return 0
	}
	return rerollFrom(&odds[pf], float64(pf)/6, failed, dice, clampCards(cards), b2i(captain))
}

// CaptainChance is the chance of a failed steal after turning the captain
// to re-roll every failed die.
func CaptainChance(failed, pf, cards int) float64 {
	if pf < 1 || pf > 5 || failed < 1 || failed > SetSize {
		return 0
	}
	return captainFrom(&odds[pf], float64(pf)/6, failed, clampCards(cards))
}
