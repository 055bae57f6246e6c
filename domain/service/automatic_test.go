package service_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesettest/handgame"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// tallyRules is the hidden-hand game with a step nobody chooses: after every
// card played, the server tallies it ({"type":"tally"}, SystemActor only).
type tallyRules struct{ handgame.Rules }

const tallyName = "tally-test-game"

func (tallyRules) Name() string { return tallyName }

func (r tallyRules) Info() domain.RulesetInfo {
	i := r.Rules.Info()
	i.Name = tallyName
	return i
}

func (r tallyRules) Create(req domain.CreateRequest) (domain.Game, domain.CatalogBlob, error) {
	g, cat, err := r.Rules.Create(req)
	return &tallyGame{Game: g.(*handgame.Game)}, cat, err
}

func (r tallyRules) Restore(state []byte, cat domain.CatalogBlob) (domain.Game, error) {
	var s struct {
		Inner   json.RawMessage `json:"inner"`
		Tallies int             `json:"tallies"`
	}
	if err := json.Unmarshal(state, &s); err != nil {
		return nil, err
	}
	g, err := r.Rules.Restore(s.Inner, cat)
	if err != nil {
		return nil, err
	}
	return &tallyGame{Game: g.(*handgame.Game), Tallies: s.Tallies}, nil
}

func (r tallyRules) Replay(req domain.CreateRequest, cat domain.CatalogBlob, moves []domain.ReplayMove) (domain.Game, int, error) {
	g0, _, err := r.Create(req)
	if err != nil {
		return nil, 0, err
	}
	g := g0.(*tallyGame)
	for i, m := range moves {
		if _, err := g.Apply(m.Actor, m.Move); err != nil {
			return g, i + 1, err
		}
	}
	return g, 0, nil
}

type tallyGame struct {
	*handgame.Game
	Tallies int
	tallied bool
}

var _ domain.Automatic = (*tallyGame)(nil)

func (g *tallyGame) Due() ([]byte, bool) {
	return []byte(`{"type":"tally"}`), g.Tallies < len(g.Game.Played)
}

func (g *tallyGame) Apply(actor domain.Actor, move []byte) (domain.Logged, error) {
	g.tallied = false
	if string(move) != `{"type":"tally"}` {
		if actor.IsSystem() {
			return domain.Logged{}, domain.Fail(domain.Forbidden, "hand.forbidden.host")
		}
		if _, due := g.Due(); due {
			return domain.Logged{}, domain.Refuse("turn", "hand.refuse.turn", "seat", -1)
		}
		return g.Game.Apply(actor, move)
	}
	if _, due := g.Due(); !actor.IsSystem() || !due {
		return domain.Logged{}, domain.Fail(domain.Forbidden, "hand.forbidden.host")
	}
	g.Tallies++
	g.tallied = true
	return domain.Logged{Move: move}, nil
}

func (g *tallyGame) Events() []domain.Event {
	if g.tallied {
		return []domain.Event{{Type: "tallied", Data: domain.MustJSON(map[string]int{"tallies": g.Tallies})}}
	}
	return g.Game.Events()
}

func (g *tallyGame) Snapshot() ([]byte, error) {
	inner, err := g.Game.Snapshot()
	return domain.MustJSON(map[string]any{"inner": json.RawMessage(inner), "tallies": g.Tallies}), err
}

// TestAutomaticMoves: a move an Automatic game has due is made by the server
// right after the move that made it due, logged with the system actor, told
// live with its events like any move, and replayed from the log.
func TestAutomaticMoves(t *testing.T) {
	ctx := t.Context()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "treasury.db"))
	require.NoError(t, err)
	defer store.Close()
	s := service.New(store, tallyRules{})
	c, err := s.Create(ctx, tallyName, domain.CreateRequest{Mode: domain.Digital, Players: []string{"Ann", "Bob"},
		Options: json.RawMessage(`{"hand_size":1}`)})
	require.NoError(t, err)
	id := c.Game.ID
	live, stop := s.Subscribe(id)
	defer stop()

	plays := 0
	for {
		g, err := s.Game(ctx, id, domain.HostViewer)
		require.NoError(t, err)
		if g.Ended {
			break
		}
		var view struct{ Turn int }
		require.NoError(t, json.Unmarshal(g.State, &view))
		_, legal, err := s.LegalMoves(ctx, id, domain.SeatViewer(view.Turn), view.Turn)
		require.NoError(t, err)
		var l handgame.Legal
		require.NoError(t, json.Unmarshal(legal, &l))
		m, _ := json.Marshal(handgame.Move{Type: "play", Seat: view.Turn, Card: l.Cards[0]})
		p, err := s.Play(ctx, id, domain.Actor{Seat: view.Turn}, m, domain.PlayOptions{})
		require.NoError(t, err)
		plays++

		u := <-live
		assert.Equal(t, p.Seq, u.Seq)
		u = <-live // the server's tally, told like any move
		assert.Equal(t, p.Seq+1, u.Seq)
		assert.True(t, u.Actor.IsSystem(), "the tally is made by the system actor")
		require.NotEmpty(t, u.Events)
		assert.Equal(t, "tallied", u.Events[0].Type)
		assert.Equal(t, "status", u.Events[len(u.Events)-1].Type)
	}
	require.Greater(t, plays, 1)

	moves, err := s.Moves(ctx, id, 0, 0, domain.HostViewer)
	require.NoError(t, err)
	require.Len(t, moves, 2*plays)
	var replay []domain.ReplayMove
	for i, m := range moves {
		assert.Equal(t, i%2 == 1, m.Actor == domain.SystemActor, "move %d's actor", m.Seq)
		replay = append(replay, domain.ReplayMove{Actor: m.Actor, Move: m.Move})
	}
	g, bad, err := tallyRules{}.Replay(domain.CreateRequest{Mode: domain.Digital, Players: []string{"Ann", "Bob"}, Seed: mustSeed(t, s, id),
		Options: json.RawMessage(`{"hand_size":1}`)}, domain.CatalogBlob{}, replay)
	require.NoError(t, err)
	assert.Zero(t, bad)
	assert.True(t, g.Ended())
	assert.Equal(t, plays, g.(*tallyGame).Tallies)

	// A seat may not make the server's move.
	_, _, err = tallyRules{}.Replay(domain.CreateRequest{Mode: domain.Digital, Players: []string{"Ann", "Bob"}, Seed: "x"}, domain.CatalogBlob{},
		[]domain.ReplayMove{{Actor: domain.Actor{Seat: 0}, Move: []byte(`{"type":"tally"}`)}})
	assert.Equal(t, domain.Forbidden, domain.ErrorCode(err))
}

func mustSeed(t *testing.T, s *service.Games, id string) string {
	g, err := s.Game(t.Context(), id, domain.HostViewer)
	require.NoError(t, err)
	require.NotEmpty(t, g.Seed, "the seed is told once the game has ended")
	return g.Seed
}
