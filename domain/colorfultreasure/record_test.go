package colorfultreasure

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// recordOf builds the record of a game played by randomGame, as the server
// exports it once the game has ended.
func recordOf(t testing.TB, g *Game, log []playedMove) domain.Record {
	setup := Wrap(g).Setup()
	r := domain.Record{
		Format: domain.RecordFormat, GameID: "test", Ruleset: RulesetName, Mode: string(g.Mode), Players: setup.Players,
		Catalog: domain.RecordCatalog{Name: g.cat.Name, Hash: g.cat.Hash, Content: string(g.cat.Content)},
		Ended:   g.Phase == PhaseEnded, Version: int64(len(log)), Options: setup.Options,
	}
	if g.Mode == Digital {
		r.SeedCommitment, r.Seed, r.SeedSalt = domain.SeedCommitment(g.Seed, g.Salt), g.Seed, g.Salt
	}
	for i, pm := range log {
		b, err := json.Marshal(&pm.move)
		require.NoError(t, err)
		r.Moves = append(r.Moves, domain.RecordMove{Seq: int64(i + 1), Actor: domain.ActorOf(pm.actor), Move: b})
	}
	return r
}

func TestVerifyRecordOfRandomGames(t *testing.T) {
	rules := []domain.Ruleset{NewRules()}
	games := 300
	if testing.Short() || raceEnabled {
		games = 30
	}
	for i := 0; i < games; i++ {
		mode := []Mode{Digital, Physical}[i%2]
		s := randomSetup(uint64(500+i), 2+i%3, mode, variants[(i/2)%3])
		g, log := randomGame(t, s, uint64(500+i), nil)
		v := domain.VerifyRecord(rules, recordOf(t, g, log))
		require.True(t, v.Valid, "game %d (%s %s): %+v", i, mode, s.Variant, v.Problem)
		want, err := json.Marshal(g.Score())
		require.NoError(t, err)
		require.JSONEq(t, string(want), string(v.Score), "game %d: replayed scores differ", i)
	}
}

func TestVerifyRecordTampered(t *testing.T) {
	rules := []domain.Ruleset{NewRules()}
	s := randomSetup(77, 3, Digital, VariantStandard)
	g, log := randomGame(t, s, 77, nil)
	firstTake := -1
	for i, pm := range log {
		if pm.move.Type == MoveCollect && len(pm.move.Take) == 1 && pm.move.Take[0] != TakeLocks {
			firstTake = i
			break
		}
	}
	require.GreaterOrEqual(t, firstTake, 0)
	tests := []struct {
		name   string
		tamper func(r *domain.Record)
		seq    int64
		code   string
	}{
		{"a take of what was not revealed", func(r *domain.Record) {
			m := log[firstTake].move
			m.Take = []string{TakeLocks}
			r.Moves[firstTake].Move, _ = json.Marshal(&m)
		}, int64(firstTake + 1), "illegal_move"},
		{"another seed", func(r *domain.Record) {
			r.Seed = "another"
		}, 0, "seed_mismatch"},
		{"a move by the wrong seat", func(r *domain.Record) {
			s := (*r.Moves[0].Actor.Seat + 1) % 3
			r.Moves[0].Actor.Seat = &s
		}, 1, "forbidden"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := recordOf(t, g, log)
			tc.tamper(&r)
			v := domain.VerifyRecord(rules, r)
			require.False(t, v.Valid)
			assert.Equal(t, tc.seq, v.Problem.Seq)
			assert.Equal(t, tc.code, v.Problem.Code, v.Problem.Reason)
		})
	}
}
