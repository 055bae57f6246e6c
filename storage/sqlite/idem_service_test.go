package sqlite_test

import (
	"database/sql"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// TestRetriesOfMovesStoredBeforeMigration0009 plays a real game through the
// service, turns its idempotency records into what a database migrated from
// schema 8 holds (records in the idempotency table, none in the moves' rows),
// and plays on with a new server: a retry of a move made before is answered
// as a retry, the same key with another move is refused, and a new move with
// a new key is stored and replayed.
func TestRetriesOfMovesStoredBeforeMigration0009(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "treasury.db")
	st, err := sqlite.Open(ctx, path)
	require.NoError(t, err)
	svc := service.New(st, silvergold.NewRules())
	c, err := svc.Create(ctx, silvergold.RulesetName, domain.CreateRequest{Mode: "digital", Players: []string{"Ann", "Ben", "Cid", "Dee"}})
	require.NoError(t, err)
	id, r := c.Game.ID, rand.New(rand.NewPCG(9, 1))
	type made struct {
		actor domain.Actor
		move  []byte
		seq   int64
	}
	var before []made
	for i := range 3 {
		actor, m, _, ok, err := nextMove(ctx, svc, id, r)
		require.NoError(t, err)
		require.True(t, ok)
		p, err := svc.Play(ctx, id, actor, m, domain.PlayOptions{IdempotencyKey: []string{"k0", "k1", "k2"}[i], Minimal: true})
		require.NoError(t, err)
		before = append(before, made{actor, m, p.Seq})
	}
	require.NoError(t, st.Close())

	db, err := sql.Open("sqlite3", path)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO idempotency (game_id, scope, key, request_hash, status, response)
			SELECT game_id, idem_scope, idem_key, idem_request_hash, idem_status, idem_response FROM moves WHERE idem IS NOT NULL;
		UPDATE moves SET idem = NULL, idem_scope = NULL, idem_key = NULL, idem_request_hash = NULL, idem_status = NULL, idem_response = NULL`)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	st, err = sqlite.Open(ctx, path)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	svc = service.New(st, silvergold.NewRules())
	for i, b := range before {
		p, err := svc.Play(ctx, id, b.actor, b.move, domain.PlayOptions{IdempotencyKey: []string{"k0", "k1", "k2"}[i], Minimal: true})
		require.NoError(t, err)
		assert.True(t, p.Replayed, "retry of move %d", b.seq)
		assert.Equal(t, b.seq, p.Seq)
	}
	// Keys are the actor's own: seat 0's k0 with another body is refused.
	_, err = svc.Play(ctx, id, before[0].actor, before[1].move, domain.PlayOptions{IdempotencyKey: "k0", Minimal: true})
	requireCode(t, err, domain.IdempotencyReused)
	actor, m, version, ok, err := nextMove(ctx, svc, id, r)
	require.NoError(t, err)
	require.True(t, ok)
	p, err := svc.Play(ctx, id, actor, m, domain.PlayOptions{IdempotencyKey: "k3", Minimal: true})
	require.NoError(t, err)
	require.False(t, p.Replayed)
	require.Equal(t, version+1, p.Seq)
	again, err := svc.Play(ctx, id, actor, m, domain.PlayOptions{IdempotencyKey: "k3", Minimal: true})
	require.NoError(t, err)
	assert.True(t, again.Replayed)
	assert.Equal(t, p.Seq, again.Seq)
}
