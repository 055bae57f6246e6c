package service_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesettest/handgame"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// TestSecretsThroughTheService plays the hidden-hand game through the service
// on a real SQLite file and reads it back the ways clients do: the move log,
// the record, live and caught-up events. A card drawn reaches only the seat
// that drew it (not even the host) while the game runs, and everyone once it
// has ended.
func TestSecretsThroughTheService(t *testing.T) {
	ctx := t.Context()
	s := sqliteService(t, handgame.Rules{})
	c, err := s.Create(ctx, handgame.Name, domain.CreateRequest{Mode: domain.Digital, Players: []string{"Ann", "Bob"},
		Options: json.RawMessage(`{"hand_size":2}`)})
	require.NoError(t, err)
	id := c.Game.ID
	assert.JSONEq(t, `{"hand_size":2,"start_player":0}`, string(c.Game.Options))
	assert.NotEmpty(t, c.Game.SeedCommitment)
	assert.Empty(t, c.Game.Seed, "the seed is secret while the game runs")

	live, stop := s.Subscribe(id)
	defer stop()
	viewers := map[string]domain.Viewer{"public": domain.Public, "host": domain.HostViewer, "seat 0": domain.SeatViewer(0), "seat 1": domain.SeatViewer(1)}
	drawnBy := map[int][]string{}
	for moves := 0; ; moves++ {
		if _, ok := playFirstCard(t, s, id); !ok {
			break
		}

		u := <-live
		drew := false
		for _, e := range u.Events {
			if e.Type == "card_drawn" {
				drew = true
				var d struct{ Card string }
				require.NoError(t, json.Unmarshal(e.Data, &d))
				drawnBy[u.Actor.Seat] = append(drawnBy[u.Actor.Seat], d.Card)
			}
		}
		// Live, and from the log: who reads the card just drawn.
		for name, v := range viewers {
			_, events := u.Disclose(v, true)
			caught, err := s.Updates(ctx, id, u.Seq-1)
			require.NoError(t, err)
			_, later := caught[0].Disclose(v, false)
			for _, evs := range [][]domain.Event{events, later} {
				sees := false
				for _, e := range evs {
					sees = sees || e.Type == "card_drawn"
				}
				if u.Ended {
					continue
				}
				assert.Equal(t, drew && v.Seat == u.Actor.Seat && !v.Host, sees, "%s reading the card seat %d drew at move %d", name, u.Actor.Seat, u.Seq)
			}
		}
		require.Less(t, moves, 100)
	}
	require.NotEmpty(t, drawnBy[0])

	// Once ended, the record holds everything, and it replays.
	rec, err := s.Record(ctx, id, domain.Public)
	require.NoError(t, err)
	assert.True(t, rec.Ended)
	assert.NotEmpty(t, rec.Seed)
	assert.Equal(t, domain.SeedCommitment(rec.Seed, rec.SeedSalt), rec.SeedCommitment)
	assert.JSONEq(t, `{"hand_size":2,"start_player":0}`, string(rec.Options))
	v := domain.VerifyRecord([]domain.Ruleset{handgame.Rules{}}, rec)
	assert.True(t, v.Valid, "%+v", v.Problem)
	caught, err := s.Updates(ctx, id, 0)
	require.NoError(t, err)
	all := ""
	for _, u := range caught {
		_, evs := u.Disclose(domain.Public, false)
		for _, e := range evs {
			all += string(e.Data)
		}
	}
	assert.True(t, strings.Contains(all, drawnBy[0][0]), "the public reads every draw once the game has ended")
}

// TestRecordWhileMovesArrive reads the record of a game while its moves are
// played: every record is one consistent snapshot (as many moves as its
// version), and a finished game's record verifies.
func TestRecordWhileMovesArrive(t *testing.T) {
	ctx := t.Context()
	s := sqliteService(t, handgame.Rules{})
	c, err := s.Create(ctx, handgame.Name, domain.CreateRequest{Mode: domain.Physical, Players: []string{"Ann", "Bob"}})
	require.NoError(t, err)
	id := c.Game.ID
	done := make(chan struct{})
	go func() {
		defer close(done)
		for seat, card := 0, 1; card <= handgame.Cards; card++ {
			m, _ := json.Marshal(handgame.Move{Type: "play", Seat: seat, Card: strings.Replace("cXX", "XX", twoDigits(card), 1)})
			if _, err := s.Play(ctx, id, domain.Actor{Seat: seat}, m, domain.PlayOptions{}); err != nil {
				t.Error(err)
				return
			}
			seat = 1 - seat
		}
	}()
	reads := 0
	for running := true; running; reads++ {
		select {
		case <-done:
			running = false
		default:
		}
		rec, err := s.Record(ctx, id, domain.Public)
		require.NoError(t, err)
		require.Equal(t, int(rec.Version), len(rec.Moves), "a record of version %d carries %d moves", rec.Version, len(rec.Moves))
	}
	rec, err := s.Record(ctx, id, domain.Public)
	require.NoError(t, err)
	require.True(t, rec.Ended)
	v := domain.VerifyRecord([]domain.Ruleset{handgame.Rules{}}, rec)
	assert.True(t, v.Valid, "%+v", v.Problem)
	t.Logf("%d records read while %d moves were played", reads, rec.Version)
}

func twoDigits(n int) string { return string(rune('0'+n/10)) + string(rune('0'+n%10)) }

// playFirstCard plays, in the hidden-hand game id, the first card the seat
// on turn is offered; ok is false (and nothing played) once the game has
// ended.
func playFirstCard(t *testing.T, s *service.Games, id string) (p domain.Played, ok bool) {
	ctx := t.Context()
	g, err := s.Game(ctx, id, domain.HostViewer)
	require.NoError(t, err)
	if g.Ended {
		return domain.Played{}, false
	}
	var view struct{ Turn int }
	require.NoError(t, json.Unmarshal(g.State, &view))
	_, legal, err := s.LegalMoves(ctx, id, domain.SeatViewer(view.Turn), view.Turn)
	require.NoError(t, err)
	var l handgame.Legal
	require.NoError(t, json.Unmarshal(legal, &l))
	m, _ := json.Marshal(handgame.Move{Type: "play", Seat: view.Turn, Card: l.Cards[0]})
	p, err = s.Play(ctx, id, domain.Actor{Seat: view.Turn}, m, domain.PlayOptions{})
	require.NoError(t, err)
	return p, true
}

// sqliteService is a service of rulesets on a new SQLite file, closed when
// the test ends.
func sqliteService(t *testing.T, rulesets ...domain.Ruleset) *service.Games {
	store, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "treasury.db"))
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	return service.New(store, rulesets...)
}

// TestAutomaticMoves: a move an Automatic game has due is made by the server
// right after the move that made it due, logged with the system actor, told
// live with its events like any move, and replayed from the log.
func TestAutomaticMoves(t *testing.T) {
	ctx := t.Context()
	s := sqliteService(t, tallyRules{})
	c, err := s.Create(ctx, tallyName, domain.CreateRequest{Mode: domain.Digital, Players: []string{"Ann", "Bob"},
		Options: json.RawMessage(`{"hand_size":1}`)})
	require.NoError(t, err)
	id := c.Game.ID
	live, stop := s.Subscribe(id)
	defer stop()

	plays := 0
	for {
		p, ok := playFirstCard(t, s, id)
		if !ok {
			break
		}
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
