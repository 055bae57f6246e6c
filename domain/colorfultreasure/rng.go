package colorfultreasure

import "github.com/treasury-games/treasury/domain/seeded"

// The random source of digital games, documented so that anyone holding the
// seed can re-deal a game with their own code:
//
//   - Each column is shuffled with its own stream of domain/seeded, in the
//     domain "colorful-treasure/v1" with the label "column/C" for column
//     C = 0..9.
//   - The column's cards start in the order diamond, key or chest (not in
//     junior), the three gems in catalog order; the shuffle is Fisher–Yates
//     from the end: for i = n-1 down to 1, swap item i with item
//     j = uniform(i+1); the result is the column from the top row down.
//   - uniform(n) takes x = the stream's next Uint64 and the 128-bit product
//     x*n; it rejects x while the low 64 bits are below (2^64 - n) mod n, and
//     returns the high 64 bits otherwise (Lemire's unbiased method).
const rngDomain = "colorful-treasure/v1"

func shuffle[T any](seed, label string, s []T) {
	seeded.Shuffle(seeded.New(rngDomain, seed, label), s)
}
