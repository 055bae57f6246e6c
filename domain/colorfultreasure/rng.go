package colorfultreasure

import (
	"crypto/sha256"
	"math/bits"
	"math/rand/v2"
)

// The random source of digital games, documented so that anyone holding the
// seed can re-deal a game with their own code:
//
//   - Each column is shuffled with its own stream, ChaCha8 (Go's
//     math/rand/v2.ChaCha8) keyed with
//     SHA-256("colorful-treasure/v1" + 0x00 + "column/C" + 0x00 + seed) for
//     column C = 0..9.
//   - The column's cards start in the order diamond, key or chest (not in
//     junior), the three gems in catalog order; the shuffle is Fisher–Yates
//     from the end: for i = n-1 down to 1, swap item i with item
//     j = uniform(i+1); the result is the column from the top row down.
//   - uniform(n) takes x = the stream's next Uint64 and the 128-bit product
//     x*n; it rejects x while the low 64 bits are below (2^64 - n) mod n, and
//     returns the high 64 bits otherwise (Lemire's unbiased method).
const rngDomain = "colorful-treasure/v1"

func stream(seed, label string) *rand.ChaCha8 {
	key := sha256.Sum256([]byte(rngDomain + "\x00" + label + "\x00" + seed))
	return rand.NewChaCha8(key)
}

func uniform(r *rand.ChaCha8, n int) int {
	un := uint64(n)
	thresh := -un % un
	for {
		hi, lo := bits.Mul64(r.Uint64(), un)
		if lo >= thresh {
			return int(hi)
		}
	}
}

func shuffle[T any](seed, label string, s []T) {
	r := stream(seed, label)
	for i := len(s) - 1; i > 0; i-- {
		j := uniform(r, i+1)
		s[i], s[j] = s[j], s[i]
	}
}
