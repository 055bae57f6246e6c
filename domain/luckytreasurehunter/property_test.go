package luckytreasurehunter

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// playedMove is a move with its actor, as the log keeps it.
type playedMove struct {
	actor domain.Actor
	move  Move
}

var botNames = []string{"Ann", "Bob", "Cid", "Dee", "Eve", "Fay"}

// randomGame plays a whole game of bots and returns it with its moves. check,
// when set, runs after every move.
func randomGame(t testing.TB, seed uint64, players int, mode Mode, check func(*Game)) (*Game, []playedMove) {
	r := rand.New(rand.NewPCG(seed, 11))
	s := Setup{Mode: mode, Players: botNames[:players], PirateFaces: 1 + int(seed%5), CaptainHeart: int(seed % uint64(players))}
	if mode == Digital {
		s.Seed, s.Salt = fmt.Sprintf("seed-%d", seed), "salt"
	}
	g, err := New(s)
	require.NoError(t, err)
	if check != nil {
		check(g)
	}
	bot, table := Bot{R: r, Nerve: r.Float64() * 0.6}, Table{R: r}
	var log []playedMove
	for i := 0; ; i++ {
		require.Less(t, i, 5000, "game did not end")
		actor, m, ok := Step(g, bot, table)
		if !ok {
			break
		}
		if err := g.Play(actor, &m); err != nil {
			t.Fatalf("seed %d move %d %+v by %+v: %v", seed, i, m, actor, err)
		}
		log = append(log, playedMove{actor, m})
		if check != nil {
			check(g)
		}
	}
	require.Equal(t, PhaseEnded, g.Phase, "bots stopped before the end")
	return g, log
}

// checkConservation asserts that every card is in exactly one place: the
// pile, a hand, the middle, a player's sets or the discard pile, and that
// every set holds 1 to 5 cards with at most one incomplete set of a type in
// any one place.
func checkConservation(t testing.TB, g *Game) {
	t.Helper()
	var seen Counts
	handCards := 0
	for _, c := range g.Pile {
		seen[c]++
	}
	checkSets := func(where string, sets []Set) {
		var incomplete Counts
		for _, s := range sets {
			require.True(t, s.Size >= 1 && s.Size <= SetSize, "%s has a set of %d", where, s.Size)
			seen[s.Treasure] += s.Size
			if s.Size < SetSize {
				incomplete[s.Treasure]++
				require.LessOrEqual(t, incomplete[s.Treasure], 1, "%s has two incomplete %s sets", where, s.Treasure)
			}
		}
	}
	checkSets("the middle", g.Middle)
	for i := range g.Players {
		p := &g.Players[i]
		require.GreaterOrEqual(t, p.HandSize, 0)
		require.LessOrEqual(t, p.HandSize, HandSize)
		if g.Mode == Digital {
			require.Equal(t, p.HandSize, p.Hand.Total(), "seat %d's hand size", i)
			for tr, n := range p.Hand {
				require.GreaterOrEqual(t, n, 0)
				seen[tr] += n
			}
		}
		handCards += p.HandSize
		checkSets(fmt.Sprintf("seat %d", i), p.Sets)
	}
	for tr, n := range g.Discard {
		require.GreaterOrEqual(t, n, 0)
		seen[tr] += n
	}
	deck := Deck(len(g.Players))
	if g.Mode == Digital {
		require.Equal(t, deck, seen, "cards by type, every place counted")
	} else {
		// Hands and pile are unseen: the rest must fit in the deck, and the
		// unseen cards are exactly the hands and the pile.
		for tr := range deck {
			require.LessOrEqual(t, seen[tr], deck[tr], "face-up and discarded %s", Treasure(tr))
		}
		require.Equal(t, deck.Total()-seen.Total(), handCards+g.PileSize())
		require.GreaterOrEqual(t, g.PileSize(), 0)
	}
	if g.PileSize() > 0 && g.Phase != PhaseEnded {
		require.False(t, g.LastRound)
	}
}

func TestCardConservation(t *testing.T) {
	games := 3000
	if testing.Short() {
		games = 300
	}
	for i := range games {
		players := 2 + i%5
		mode := Digital
		if i%2 == 1 {
			mode = Physical
		}
		g, _ := randomGame(t, uint64(i), players, mode, func(g *Game) { checkConservation(t, g) })
		require.Equal(t, 0, g.PileSize(), "a game ends only after the pile ran out")
		require.True(t, g.LastRound)
		require.Zero(t, g.Turns%players, "everyone has had the same number of turns")
	}
}
