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

// randomSetup is the setup of randomGame's game.
func randomSetup(seed uint64, players int, mode Mode) Setup {
	s := Setup{Mode: mode, Players: botNames[:players], PirateFaces: 1 + int(seed%5), CaptainHeart: int(seed % uint64(players))}
	if mode == Digital {
		s.Seed, s.Salt = fmt.Sprintf("seed-%d", seed), "salt"
	}
	return s
}

// randomGame plays a whole game of bots and returns it with its moves. check,
// when set, runs after every move.
func randomGame(t testing.TB, seed uint64, players int, mode Mode, check func(*Game)) (*Game, []playedMove) {
	r := rand.New(rand.NewPCG(seed, 11))
	g, err := New(randomSetup(seed, players, mode))
	require.NoError(t, err)
	if check != nil {
		check(g)
	}
	bot, table := Bot{R: r, Nerve: r.Float64() * 0.6}, Table{R: r}
	var log []playedMove
	for i := 0; ; i++ {
		actor, m, ok := Step(g, bot, table)
		if !ok {
			break
		}
		if err := g.Play(actor, &m); err != nil {
			t.Fatalf("seed %d move %d %+v by %+v: %v", seed, i, m, actor, err)
		}
		if i >= 5000 {
			t.Fatalf("seed %d: the game did not end", seed)
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
// any one place. (Plain comparisons: it runs after every move of thousands
// of games.)
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
			if s.Size < 1 || s.Size > SetSize {
				t.Fatalf("%s has a set of %d", where, s.Size)
			}
			seen[s.Treasure] += s.Size
			if s.Size < SetSize {
				if incomplete[s.Treasure]++; incomplete[s.Treasure] > 1 {
					t.Fatalf("%s has two incomplete %s sets: %v", where, s.Treasure, sets)
				}
			}
		}
	}
	checkSets("the middle", g.Middle)
	for i := range g.Players {
		p := &g.Players[i]
		if p.HandSize < 0 || p.HandSize > HandSize {
			t.Fatalf("seat %d holds %d cards", i, p.HandSize)
		}
		if g.Mode == Digital {
			if p.HandSize != p.Hand.Total() {
				t.Fatalf("seat %d's hand size %d, but it holds %v", i, p.HandSize, p.Hand)
			}
			for tr, n := range p.Hand {
				if n < 0 {
					t.Fatalf("seat %d holds %d %s", i, n, Treasure(tr))
				}
				seen[tr] += n
			}
		}
		handCards += p.HandSize
		checkSets(fmt.Sprintf("seat %d", i), p.Sets)
	}
	for tr, n := range g.Discard {
		if n < 0 {
			t.Fatalf("%d %s discarded", n, Treasure(tr))
		}
		seen[tr] += n
	}
	deck := Deck(len(g.Players))
	if g.Mode == Digital {
		if seen != deck {
			t.Fatalf("cards by type, every place counted: %v, the packs hold %v", seen, deck)
		}
	} else {
		// Hands and pile are unseen: the rest must fit in the packs, and the
		// unseen cards are exactly the hands and the pile.
		for tr := range deck {
			if seen[tr] > deck[tr] {
				t.Fatalf("%d %s face up or discarded; the packs hold %d", seen[tr], Treasure(tr), deck[tr])
			}
		}
		if deck.Total()-seen.Total() != handCards+g.PileSize() || g.PileSize() < 0 {
			t.Fatalf("%d cards unseen, %d in hands, %d in the pile", deck.Total()-seen.Total(), handCards, g.PileSize())
		}
	}
	if g.PileSize() > 0 && g.LastRound {
		t.Fatalf("the last round began with %d cards in the pile", g.PileSize())
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
