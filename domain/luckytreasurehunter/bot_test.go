package luckytreasurehunter

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBotWeighsTheOdds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	// Four blanks on a set of five, one matching card, the captain used:
	// the set is out of reach, the bot keeps its card.
	g := position(t, `
		faces: 2
		phase: decide
		middle: r5
		steal: r5 from middle set 0 pirates 1
		0: hand rgggg; captain used
		1: hand sssss`)
	m, ok := Bot{R: r}.Move(g, 0)
	assert.True(t, ok)
	assert.Equal(t, MoveStop, m.Type, "chance %.4f", ContinueChance(4, 2, 1, false))

	// One blank left and three rubies in hand: re-roll.
	g = position(t, `
		phase: decide
		middle: r3
		steal: r3 from middle set 0 pirates 2
		0: hand rrrgg
		1: hand sssss`)
	m, _ = Bot{R: r}.Move(g, 0)
	assert.Equal(t, Move{Type: MoveReroll, Seat: SeatPtr(0), Dice: 1}, m, "chance %.4f", RerollChance(1, 1, 3, 3, true))

	// The steal worth most: a set of 3 it holds 3 cards for beats a single
	// card it has none for.
	g = position(t, `
		phase: steal
		middle: j1 r3
		0: hand rrrgg
		1: hand sssss`)
	m, _ = Bot{R: r}.Move(g, 0)
	assert.Equal(t, 1, *m.Set, "%.3f×3 against %.3f×1", StealChance(3, 3, 3, true), StealChance(1, 3, 0, true))
}
