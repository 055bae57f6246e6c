package colorfultreasure

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

var variants = []Variant{VariantStandard, VariantJunior, VariantAdvanced}

// randomSetup returns the setup of a random game.
func randomSetup(seed uint64, players int, mode Mode, variant Variant) Setup {
	r := rand.New(rand.NewPCG(seed, 11))
	s := Setup{Mode: mode, Players: []string{"Ann", "Bob", "Cid", "Dee"}[:players], Variant: variant, Start: r.IntN(players)}
	if mode == Digital {
		s.Seed = fmt.Sprintf("seed-%d", seed)
		s.Salt = fmt.Sprintf("salt-%d", seed)
	}
	for i := range s.Sides {
		s.Sides[i] = []string{"a", "b"}[r.IntN(2)]
	}
	return s
}

// randomGame plays a whole game with bots and returns it with its moves.
// check, when set, runs after every move.
func randomGame(t testing.TB, s Setup, seed uint64, check func(*Game)) (*Game, []playedMove) {
	g, err := New(Standard(), s)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(seed, 3))
	bots := make([]*Bot, len(s.Players))
	for i := range bots {
		bots[i] = NewBot(i, r)
	}
	var log []playedMove
	for i := 0; ; i++ {
		require.Less(t, i, 3000, "game did not end")
		actor, m, ok := Step(g, bots)
		if !ok {
			break
		}
		if err := g.Play(actor, &m); err != nil {
			t.Fatalf("setup %+v move %d %+v by %+v: %v", s, i, m, actor, err)
		}
		Observe(g, bots)
		log = append(log, playedMove{actor, m})
		if check != nil {
			check(g)
		}
	}
	return g, log
}

// checkInvariants asserts what holds after every move: every card is in the
// grid or with one player, once; every diamond token above its column or with
// one player; key and chest tokens below their column, with a player or
// discarded in pairs; action tokens on offer, held or spent.
func checkInvariants(t testing.TB, g *Game) {
	t.Helper()
	var where [NumWonders][NumKinds]int
	cards := 0
	for c := range g.Grid {
		require.Len(t, g.Grid[c], g.Rows())
		for r, cell := range g.Grid[c] {
			if cell.State == CellGone {
				continue
			}
			cards++
			if cell.Kind != unknown {
				where[c][cell.Kind]++
			}
			if cell.State == CellUp {
				require.Contains(t, g.Revealed, Pos{c, r})
			}
		}
	}
	var diamondTokens [NumWonders]int
	lockTokens := 0
	for c := range g.Grid {
		if g.DiamondTokens[c] {
			diamondTokens[c]++
		}
		if g.LockTokens[c] {
			lockTokens++
		}
	}
	held := [NumTokens]int{}
	for i, p := range g.Players {
		cards += len(p.Cards)
		for _, c := range p.Cards {
			where[c.Wonder][c.Kind]++
			require.True(t, g.cat.Wonders[c.Wonder].Has(c.Kind, g.Junior()), "%s holds a card %v its wonder lacks", p.Name, c)
		}
		for _, c := range p.DiamondTokens {
			diamondTokens[c]++
		}
		lockTokens += p.KeyTokens + p.ChestTokens
		require.False(t, p.KeyTokens > 0 && p.ChestTokens > 0, "%s holds an unpaired key and chest token", p.Name)
		for _, tk := range p.Actions {
			require.Equal(t, i, g.Actions[tk])
			held[tk]++
		}
	}
	total := NumWonders * g.Rows()
	require.Equal(t, total, cards, "cards in the grid and in front of players")
	for c := range where {
		for k := range where[c] {
			require.LessOrEqual(t, where[c][k], 1, "%s's %s is in two places", g.wonder(c), Kind(k))
		}
	}
	for c := range diamondTokens {
		require.Equal(t, 1, diamondTokens[c], "diamond token of %s", g.wonder(c))
	}
	if g.Junior() {
		require.Zero(t, lockTokens)
	} else {
		// Pairs leave the game two at a time, or one with the wild token.
		require.LessOrEqual(t, lockTokens, NumWonders)
	}
	for tk, h := range g.Actions {
		if h >= 0 {
			require.Equal(t, 1, held[tk])
		} else {
			require.Zero(t, held[tk])
		}
	}
	require.Equal(t, len(g.Revealed) > 0, g.Phase == PhaseChoose, "cards are face up only while choosing")
}

func TestCardConservation(t *testing.T) {
	games := 3000
	if testing.Short() || raceEnabled {
		games = 300
	}
	ended := map[string]int{}
	for i := 0; i < games; i++ {
		mode := []Mode{Digital, Physical}[i%2]
		variant := variants[(i/2)%3]
		players := 2 + (i/6)%3
		s := randomSetup(uint64(i), players, mode, variant)
		g, _ := randomGame(t, s, uint64(i), func(g *Game) { checkInvariants(t, g) })
		require.Equal(t, PhaseEnded, g.Phase)
		if variant == VariantJunior {
			require.Zero(t, g.Left(), "a junior game ends with the grid empty")
		} else {
			require.LessOrEqual(t, g.Left(), EndThreshold)
		}
		turns := g.Players[g.Start].Turns
		for _, p := range g.Players {
			if g.Left() > 0 {
				require.Equal(t, turns, p.Turns, "everyone has had the same number of turns")
			}
		}
		ended[string(mode)+"/"+string(variant)]++
	}
	require.Len(t, ended, 6)
}
