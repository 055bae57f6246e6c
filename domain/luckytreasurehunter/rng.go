package luckytreasurehunter

import (
	"strconv"

	"github.com/treasury-games/treasury/domain/seeded"
)

// The random source of digital games, documented so that anyone holding the
// seed can re-deal and re-roll a game with their own code:
//
//   - Each use draws from its own stream of domain/seeded (ChaCha8 keyed
//     with SHA-256("lucky-treasure-hunter/v1" + 0x00 + label + 0x00 + seed)).
//   - The label "pile" shuffles the treasure cards: the cards are listed by
//     type (all silver, then gold, pearl, ruby, jade; the extra pack's cards
//     added to their type for 5-6 players) and shuffled by Fisher–Yates from
//     the end (for i = n-1 down to 1, swap item i with item uniform(i+1)).
//     The shuffled list is the draw pile, top first: 5 cards to seat 0, 5 to
//     seat 1, …, then 3 into the middle.
//   - Roll number R of the game (1, 2, …; every roll, re-roll and captain
//     re-roll counts) uses the label "roll/R"; each die is uniform(6), and it
//     shows the pirate when that value is below pirate_faces.
//   - uniform(n) takes x = the stream's next Uint64 and the 128-bit product
//     x*n; it rejects x while the low 64 bits are below (2^64 - n) mod n and
//     returns the high 64 bits otherwise (Lemire's method).
const rngDomain = "lucky-treasure-hunter/v1"

func stream(seed, label string) seeded.Stream { return seeded.New(rngDomain, seed, label) }

// shuffledPile returns the draw pile a digital game with this seed deals from.
func shuffledPile(seed string, deck Counts) []Treasure {
	pile := make([]Treasure, 0, deck.Total())
	for t, n := range deck {
		for range n {
			pile = append(pile, Treasure(t))
		}
	}
	seeded.Shuffle(stream(seed, "pile"), pile)
	return pile
}

// rollDice returns the faces of roll number n (1-based) of dice dice: true
// is a pirate.
func rollDice(seed string, n, dice, pirateFaces int) []bool {
	r := stream(seed, "roll/"+strconv.Itoa(n))
	out := make([]bool, dice)
	for i := range out {
		out[i] = r.Uniform(6) < pirateFaces
	}
	return out
}

// DealtPile returns the treasure cards of a digital game of players with
// this seed in the order the seed shuffles them, top first: the first 5 go
// to seat 0, … , then 3 into the middle, the rest are the draw pile. Anyone
// holding a revealed seed can re-deal the game with it.
func DealtPile(seed string, players int) []Treasure {
	return shuffledPile(seed, Deck(players))
}
