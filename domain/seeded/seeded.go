// Package seeded is the random source of digital games, one for every
// ruleset, specified so that anyone holding a revealed seed can re-deal and
// re-roll a game with their own code:
//
//   - Each use draws from its own stream: ChaCha8 (the C2SP chacha8rand
//     generator, Go's math/rand/v2.ChaCha8) keyed with
//     SHA-256(domain + 0x00 + label + 0x00 + seed), where domain names the
//     ruleset and its version ("silver-and-gold/v1") and label the use
//     ("deal", "roll/3", …; each ruleset documents its labels).
//   - Uniform(n) takes x = the stream's next Uint64 and the 128-bit product
//     x*n; it rejects x while the low 64 bits are below (2^64 - n) mod n, and
//     returns the high 64 bits otherwise (Lemire's unbiased method).
//   - A shuffle of n items is Fisher–Yates from the end: for i = n-1 down to
//     1, swap item i with item j = Uniform(i+1).
package seeded

import (
	"crypto/sha256"
	"math/bits"
	"math/rand/v2"
)

// Stream is one labelled stream of a game's seed.
type Stream struct{ r *rand.ChaCha8 }

// New returns the stream of seed for label, in a ruleset's domain.
func New(domain, seed, label string) Stream {
	key := sha256.Sum256([]byte(domain + "\x00" + label + "\x00" + seed))
	return Stream{rand.NewChaCha8(key)}
}

// Uniform returns a uniform integer in [0, n), n > 0.
func (s Stream) Uniform(n int) int {
	un := uint64(n)
	thresh := -un % un
	for {
		hi, lo := bits.Mul64(s.r.Uint64(), un)
		if lo >= thresh {
			return int(hi)
		}
	}
}

// Shuffle shuffles items in place.
func Shuffle[T any](s Stream, items []T) {
	for i := len(items) - 1; i > 0; i-- {
		j := s.Uniform(i + 1)
		items[i], items[j] = items[j], items[i]
	}
}
