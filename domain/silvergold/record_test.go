package silvergold

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// recordOf builds the record of a game played by randomGame, as the server
// would export it once the game has ended.
func recordOf(t testing.TB, g *Game, log []playedMove) domain.Record {
	r := domain.Record{
		Format: domain.RecordFormat, GameID: "test", Ruleset: RulesetName, Mode: string(g.Mode),
		Catalog: domain.RecordCatalog{Name: g.cat.Name, Hash: g.cat.Hash, Content: string(g.cat.Content)},
		Ended:   g.Phase == PhaseEnded, Version: int64(len(log)), Options: json.RawMessage(`{}`),
	}
	for _, p := range g.Players {
		r.Players = append(r.Players, p.Name)
	}
	if g.Mode == Digital {
		r.SeedCommitment, r.Seed, r.SeedSalt = domain.SeedCommitment(g.Seed, g.Salt), g.Seed, g.Salt
	}
	for i, pm := range log {
		b, err := json.Marshal(pm.move)
		require.NoError(t, err)
		r.Moves = append(r.Moves, domain.RecordMove{Seq: int64(i + 1), Actor: domain.ActorOf(pm.actor), Move: b})
	}
	return r
}

func TestVerifyRecordOfRandomGames(t *testing.T) {
	rules := []domain.Ruleset{NewRules()}
	games := 300
	if testing.Short() {
		games = 40
	}
	for i := 0; i < games; i++ {
		mode := []Mode{Digital, Physical}[i%2]
		g, log := randomGame(t, uint64(1000+i), 1+i%4, mode, nil)
		v := domain.VerifyRecord(rules, recordOf(t, g, log))
		require.True(t, v.Valid, "game %d (%s): %+v", i, mode, v.Problem)
		want, err := json.Marshal(g.Score())
		require.NoError(t, err)
		require.JSONEq(t, string(want), string(v.Score), "game %d: replayed scores differ", i)
	}
}

func TestVerifyRecordTampered(t *testing.T) {
	rules := []domain.Ruleset{NewRules()}
	g, log := randomGame(t, 77, 3, Digital, nil)
	fresh := func() domain.Record { return recordOf(t, g, log) }
	firstCross := -1
	for i, pm := range log {
		if pm.move.Type == MoveCross && len(pm.move.Boxes) == 1 && len(pm.move.Extra) == 0 {
			firstCross = i
			break
		}
	}
	require.GreaterOrEqual(t, firstCross, 0)

	tests := []struct {
		name   string
		tamper func(r *domain.Record)
		seq    int64
		code   string
	}{
		{"one box moved", func(r *domain.Record) {
			// The single box moves off the grid of every card (column 4).
			m := log[firstCross].move
			m.Boxes = []Pos{{Row: 3, Col: 4}}
			r.Moves[firstCross].Move, _ = json.Marshal(m)
		}, int64(firstCross + 1), "illegal_move"},
		{"two moves swapped", func(r *domain.Record) {
			// The first keep and the first single-box crossing trade places.
			r.Moves[0].Move, r.Moves[firstCross].Move = r.Moves[firstCross].Move, r.Moves[0].Move
			r.Moves[0].Actor, r.Moves[firstCross].Actor = r.Moves[firstCross].Actor, r.Moves[0].Actor
		}, 1, "illegal_move"},
		{"seed changed", func(r *domain.Record) { r.Seed += "x" }, 0, "seed_mismatch"},
		{"seed and commitment changed together", func(r *domain.Record) {
			r.Seed += "x"
			r.SeedCommitment = domain.SeedCommitment(r.Seed, r.SeedSalt)
		}, 1, "illegal_move"},
		{"move appended after the end", func(r *domain.Record) {
			r.Moves = append(r.Moves, domain.RecordMove{Seq: int64(len(r.Moves) + 1), Actor: domain.RecordActor{Host: true}, Move: json.RawMessage(`{"type":"reveal","expedition":"D2"}`)})
			r.Version++
		}, int64(len(log) + 1), "illegal_move"},
		{"catalog content changed", func(r *domain.Record) { r.Catalog.Content += "\n# edited\n" }, 0, "catalog_changed"},
		{"a draw that the seed does not deal", func(r *domain.Record) {
			for i, pm := range log {
				if pm.move.Type == MoveTake && pm.move.From == FromDeck {
					m := pm.move
					m.Card = "purple-12"
					if pm.move.Card == "purple-12" {
						m.Card = "purple-11"
					}
					r.Moves[i].Move, _ = json.Marshal(m)
					return
				}
			}
			t.Skip("no deck draw in this game")
		}, -1, "illegal_move"},
		{"gap in the sequence", func(r *domain.Record) { r.Moves[3].Seq = 99 }, 0, "sequence"},
		{"seed withheld", func(r *domain.Record) { r.Seed = "" }, 0, "seed_missing"},
		{"salt withheld", func(r *domain.Record) { r.SeedSalt = "" }, 0, "seed_mismatch"},
		{"options in a version 1 record", func(r *domain.Record) { r.Format = domain.RecordFormatV1 }, 0, "format"},
		{"an option this ruleset does not have", func(r *domain.Record) { r.Options = json.RawMessage(`{"variant":"junior"}`) }, 0, "invalid"},
		{"unknown format", func(r *domain.Record) { r.Format = "v0" }, 0, "format"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := fresh()
			tc.tamper(&r)
			v := domain.VerifyRecord(rules, r)
			require.False(t, v.Valid)
			require.NotNil(t, v.Problem)
			assert.Equal(t, tc.code, v.Problem.Code, "problem: %+v", v.Problem)
			if tc.seq >= 0 {
				assert.Equal(t, tc.seq, v.Problem.Seq, "problem: %+v", v.Problem)
			}
			assert.NotEmpty(t, v.Problem.Reason)
			if v.Problem.Seq > 0 {
				assert.NotEmpty(t, v.Before, "the state before the bad move is shown")
				assert.Equal(t, int(v.Problem.Seq-1), v.Moves)
			}
		})
	}
	t.Run("a version 1 record, committed without salt, is valid", func(t *testing.T) {
		// Records exported before salts existed commit to the seed's plain
		// hash; they verify as they always did.
		old, oldLog := randomGame(t, 78, 2, Digital, nil)
		require.Empty(t, old.Salt)
		r := recordOf(t, old, oldLog)
		r.Format, r.Options = domain.RecordFormatV1, nil
		require.Equal(t, domain.SeedCommitment(r.Seed, ""), r.SeedCommitment)
		v := domain.VerifyRecord(rules, r)
		require.True(t, v.Valid, fmt.Sprint(v.Problem))
	})
	t.Run("untouched record is valid", func(t *testing.T) {
		v := domain.VerifyRecord(rules, fresh())
		require.True(t, v.Valid, fmt.Sprint(v.Problem))
	})
}
