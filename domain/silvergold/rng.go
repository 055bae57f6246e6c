package silvergold

import "github.com/treasury-games/treasury/domain/seeded"

// The random source of digital games is domain/seeded's, in the domain
// "silver-and-gold/v1", so that anyone holding the seed can re-deal a game
// with their own code. The labels are "deal" (the 47 cards before dealing),
// "deck" (the deck after the kept cards are out) and "expeditions/R" for round
// R = 1..4; each is one Fisher–Yates shuffle.
const rngDomain = "silver-and-gold/v1"

// shuffleInts shuffles s in place with the stream for label.
func shuffleInts[T any](seed, label string, s []T) {
	seeded.Shuffle(seeded.New(rngDomain, seed, label), s)
}
