package silvergold

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

// randomGame plays a whole random game and returns it with its moves. check,
// when set, runs after every move.
func randomGame(t testing.TB, seed uint64, players int, mode Mode, check func(*Game)) (*Game, []playedMove) {
	r := rand.New(rand.NewPCG(seed, 7))
	names := []string{"Ann", "Bob", "Cid", "Dee"}[:players]
	s := Setup{Mode: mode, Players: names}
	if mode == Digital {
		s.Seed = fmt.Sprintf("seed-%d", seed)
		if seed%2 == 1 {
			s.Salt = fmt.Sprintf("salt-%d", seed) // games since salts; even seeds play older ones
		}
	}
	g, err := New(Standard(), s)
	require.NoError(t, err)
	bot, table := Bot{R: r}, &Table{R: r}
	var log []playedMove
	for i := 0; ; i++ {
		require.Less(t, i, 2000, "game did not end")
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
	return g, log
}

// checkInvariants asserts what must hold after every move.
func checkInvariants(t testing.TB, g *Game) {
	t.Helper()
	count := make([]int, len(g.cat.Cards))
	for _, c := range g.Display {
		count[c]++
	}
	for _, c := range g.Deck {
		count[c]++
	}
	for _, c := range g.Returned {
		count[c]++
	}
	usedCups := map[int]int{}
	for _, c := range g.Cups {
		usedCups[c]++
	}
	for i, p := range g.Players {
		if !p.Kept {
			for _, c := range p.Dealt {
				count[c]++
			}
		}
		for _, h := range p.Hand {
			count[h.Card]++
			require.Zero(t, h.Crossed&^g.cat.Cards[h.Card].Boxes, "seat %d crossed a box its card does not have", i)
		}
		for _, c := range p.Pile {
			count[c]++
		}
		require.LessOrEqual(t, len(p.Hand), HandSize, "seat %d holds more than 2 cards", i)
		require.LessOrEqual(t, p.Coins, CoinBoxes)
		require.LessOrEqual(t, len(p.Palms), PalmBoxes)
		require.LessOrEqual(t, len(p.Cups), 3)
		require.LessOrEqual(t, len(p.Cups), p.Coins/CoinsPerRow)
		for _, v := range p.Palms {
			require.GreaterOrEqual(t, v, 1)
			require.LessOrEqual(t, v, 1+DisplaySize) // the standard deck has at most one palm per card
		}
		for _, c := range p.Cups {
			usedCups[c]++
		}
	}
	require.LessOrEqual(t, len(g.Display), DisplaySize)
	for v, n := range usedCups {
		require.Equal(t, 1, n, "cup %d is in %d places", v, n)
	}
	require.Len(t, usedCups, cupsAtStart)
	if g.Mode == Digital && g.Phase != PhaseSetup {
		for c, n := range count {
			require.Equal(t, 1, n, "card %s is in %d places", g.cardID(c), n)
		}
	} else {
		for c, n := range count {
			require.LessOrEqual(t, n, 1, "card %s is in %d places", g.cardID(c), n)
		}
		if g.Mode == Physical {
			require.Equal(t, len(g.cat.Cards)-len(g.Display)-inFront(g), g.DeckSize())
		}
	}
	s := g.Score()
	for _, ps := range s.Players {
		require.Equal(t, ps.Lines.Sum(), ps.Total)
	}
	if g.Phase != PhaseSetup && g.Phase != PhaseEnded {
		require.Len(t, g.Revealed, g.Turn-boolInt(g.Phase == PhaseReveal))
	}
}

func inFront(g *Game) int {
	n := 0
	for _, p := range g.Players {
		n += len(p.Hand) + len(p.Pile)
	}
	return n
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// replay applies a move log to a fresh game made like g.
func replay(t testing.TB, g *Game, log []playedMove) *Game {
	names := make([]string, len(g.Players))
	for i, p := range g.Players {
		names[i] = p.Name
	}
	r, err := New(g.cat, Setup{Mode: g.Mode, Players: names, Seed: g.Seed})
	require.NoError(t, err)
	for i, pm := range log {
		m := pm.move
		require.NoError(t, r.play(pm.actor, &m, true), "replaying move %d", i+1)
	}
	return r
}

func TestRandomGames(t *testing.T) {
	games := 2000
	if testing.Short() || raceEnabled {
		games = 200
	}
	for i := 0; i < games; i++ {
		players := 1 + i%4
		mode := Digital
		if i%2 == 1 {
			mode = Physical
		}
		name := fmt.Sprintf("%s/%dp/seed-%d", mode, players, i)
		g, log := randomGame(t, uint64(i), players, mode, func(g *Game) { checkInvariants(t, g) })
		require.Equal(t, PhaseEnded, g.Phase, name)
		require.Equal(t, Rounds, g.Round)
		final, err := g.Snapshot()
		require.NoError(t, err)
		again, err := replay(t, g, log).Snapshot()
		require.NoError(t, err)
		require.Equal(t, string(final), string(again), "%s: replay differs", name)
		restored, err := Restore(g.cat, final)
		require.NoError(t, err)
		back, err := restored.Snapshot()
		require.NoError(t, err)
		require.Equal(t, string(final), string(back), "%s: snapshot round trip differs", name)
	}
}
