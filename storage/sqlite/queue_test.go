package sqlite_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/sqlite"
)

var (
	_ domain.AppendQueuer         = (*sqlite.Store)(nil)
	_ domain.IdempotencyKeyLister = (*sqlite.Store)(nil)
)

func TestQueueAppend(t *testing.T) {
	t.Run("a game's next move queued before the commit of the last one shares it", func(t *testing.T) {
		gate := newWriterGate()
		var (
			mu     sync.Mutex
			writes []int
		)
		s, _ := openStore(t, gate.option(), sqlite.WithCommitObserver(func(_ time.Duration, n int) {
			mu.Lock()
			defer mu.Unlock()
			writes = append(writes, n)
		}))
		mustCreate(t, s, "g1")

		release, blocker := gate.hold(t, s, "blocker")
		waits := make([]func() error, 3)
		for v := range int64(3) {
			waits[v] = s.QueueAppend(t.Context(), move("g1", v)) // returns at once
		}
		waitQueue(t, s, 3)
		release()
		require.NoError(t, <-blocker)
		for _, wait := range waits {
			require.NoError(t, wait())
		}
		g, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, int64(3), g.Version)
		mu.Lock()
		defer mu.Unlock()
		assert.Equal(t, []int{1, 4}, writes, "the three moves joined the blocker's commit")
	})

	t.Run("a move queued after one that fails fails too, and nothing of either is stored", func(t *testing.T) {
		gate := newWriterGate()
		s, _ := openStore(t, gate.option())
		mustCreate(t, s, "g1")

		release, blocker := gate.hold(t, s, "blocker")
		bad := move("g1", 0)
		bad.Idempotency = &domain.IdempotencyRecord{Key: "k", Scope: "seat:0", RequestHash: "h", Status: 200, Response: []byte(`{}`)}
		first := s.QueueAppend(t.Context(), bad)
		dup := move("g1", 1)
		dup.Idempotency = bad.Idempotency // the same key again: refused at its savepoint
		second := s.QueueAppend(t.Context(), dup)
		third := s.QueueAppend(t.Context(), move("g1", 2))
		waitQueue(t, s, 3)
		release()
		require.NoError(t, <-blocker)
		require.NoError(t, first())
		requireCode(t, second(), domain.Conflict)
		requireCode(t, third(), domain.Conflict) // it expected the version of the refused one
		g, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, int64(1), g.Version)
	})

	t.Run("a closed store refuses at once", func(t *testing.T) {
		s, _ := openStore(t)
		mustCreate(t, s, "g1")
		require.NoError(t, s.Close())
		requireCode(t, s.QueueAppend(t.Context(), move("g1", 0))(), domain.Unavailable)
	})

	t.Run("a move that does not follow its version is refused before it is queued", func(t *testing.T) {
		s, _ := openStore(t)
		mustCreate(t, s, "g1")
		a := move("g1", 0)
		a.Move.Seq = 5
		err := s.QueueAppend(t.Context(), a)()
		require.Error(t, err)
		var de *domain.Error
		assert.False(t, errors.As(err, &de), "a caller's bug, not a coded error")
	})
}

func TestIdempotencyKeys(t *testing.T) {
	t.Run("lists the keys of one game without their responses", func(t *testing.T) {
		s, _ := openStore(t)
		mustCreate(t, s, "g1")
		mustCreate(t, s, "g2")
		for v, key := range []string{"a", "b"} {
			a := move("g1", int64(v))
			a.Idempotency = &domain.IdempotencyRecord{Key: key, Scope: "host", RequestHash: "h" + key, Status: 200, Response: []byte(`{"big":true}`)}
			require.NoError(t, s.Append(t.Context(), a))
		}
		a := move("g2", 0)
		a.Idempotency = &domain.IdempotencyRecord{Key: "c", Scope: "seat:1", RequestHash: "hc", Status: 200, Response: []byte(`{}`)}
		require.NoError(t, s.Append(t.Context(), a))

		got, err := s.IdempotencyKeys(t.Context(), "g1")
		require.NoError(t, err)
		assert.ElementsMatch(t, []domain.IdempotencyRecord{
			{Key: "a", Scope: "host", RequestHash: "ha", Status: 200},
			{Key: "b", Scope: "host", RequestHash: "hb", Status: 200},
		}, got)

		got, err = s.IdempotencyKeys(t.Context(), "g3")
		require.NoError(t, err)
		assert.Empty(t, got)
	})
}
