package service_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// TestPlayMinimal: a move played with Minimal (Prefer: return=minimal) is
// answered with its seq and the game's version, and no view of the game is
// built; a retry of it, minimal too, the same; a retry without Minimal gets
// the whole game.
func TestPlayMinimal(t *testing.T) {
	s, _ := newService(t, filepath.Join(t.TempDir(), "t.db"))
	id, keeps := newTable(t, s)
	opt := domain.PlayOptions{Minimal: true, IdempotencyKey: "k0"}
	p, err := s.Play(t.Context(), id, domain.Actor{Seat: 0}, keeps[0], opt)
	require.NoError(t, err)
	assert.Equal(t, int64(1), p.Seq)
	assert.Equal(t, int64(1), p.Game.Version)
	assert.Empty(t, p.Response, "no answer body was encoded")
	assert.Empty(t, p.Game.State, "no view was built")

	again, err := s.Play(t.Context(), id, domain.Actor{Seat: 0}, keeps[0], opt)
	require.NoError(t, err)
	assert.True(t, again.Replayed)
	assert.Equal(t, int64(1), again.Seq)
	assert.Equal(t, int64(1), again.Game.Version)
	assert.Empty(t, again.Game.State)

	full, err := s.Play(t.Context(), id, domain.Actor{Seat: 0}, keeps[0], domain.PlayOptions{IdempotencyKey: "k0"})
	require.NoError(t, err)
	assert.True(t, full.Replayed)
	assert.NotEmpty(t, full.Game.State, "without Minimal the answer has the game")
	assert.Contains(t, string(full.Response), `"seq":1`)
}
