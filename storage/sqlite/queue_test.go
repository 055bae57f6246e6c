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

	t.Run("several moves of each of two games in one commit: every move stored, each game at its last", func(t *testing.T) {
		s, gate := twoGames(t)
		appendN(t, s, "g2", 2)

		var waits []func() error
		inOneCommit(t, s, gate, func() int {
			for v := range int64(3) { // g1 0..3 and g2 2..5, taking turns
				waits = append(waits, s.QueueAppend(t.Context(), move("g1", v)), s.QueueAppend(t.Context(), move("g2", v+2)))
			}
			keyed := move("g1", 3)
			keyed.Idempotency = &domain.IdempotencyRecord{Key: "k", Scope: "seat:0", RequestHash: "h", Status: 200, Response: []byte(`{}`)}
			waits = append(waits, s.QueueAppend(t.Context(), keyed))
			return len(waits)
		})
		for _, wait := range waits {
			require.NoError(t, wait())
		}
		for id, version := range map[string]int64{"g1": 4, "g2": 5} {
			g, err := s.Game(t.Context(), id)
			require.NoError(t, err)
			last := move(id, version-1)
			assert.Equal(t, version, g.Version, id)
			assert.JSONEq(t, string(last.State), string(g.State), id)
			assert.True(t, last.Move.At.Equal(g.UpdatedAt), "%s updated at its last move: %v", id, g.UpdatedAt)
			moves, err := s.Moves(t.Context(), id, 0, 0)
			require.NoError(t, err)
			require.Len(t, moves, int(version), id)
			for i, m := range moves {
				assert.Equal(t, int64(i+1), m.Seq, id)
				assert.JSONEq(t, string(move(id, int64(i)).Move.Move), string(m.Move), id)
			}
		}
		r, err := s.Idempotency(t.Context(), "g1", "seat:0", "k")
		require.NoError(t, err)
		require.NotNil(t, r)
		assert.Equal(t, "h", r.RequestHash)
	})

	t.Run("a second move for the same version in one commit is refused alone", func(t *testing.T) {
		s, gate := twoGames(t)

		var first, second, third func() error
		inOneCommit(t, s, gate, func() int {
			first = s.QueueAppend(t.Context(), move("g1", 0))
			second = s.QueueAppend(t.Context(), move("g1", 1))
			rival := move("g1", 1)
			rival.State = []byte(`{"rival":true}`)
			third = s.QueueAppend(t.Context(), rival)
			return 3
		})
		require.NoError(t, first())
		require.NoError(t, second())
		requireCode(t, third(), domain.Conflict)
		g, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, int64(2), g.Version)
		assert.JSONEq(t, string(move("g1", 1).State), string(g.State))
		moves, err := s.Moves(t.Context(), "g1", 0, 0)
		require.NoError(t, err)
		assert.Len(t, moves, 2)
	})

	t.Run("moves that follow one another but not the stored version are all refused, another game's move is not", func(t *testing.T) {
		s, gate := twoGames(t)
		appendN(t, s, "g1", 1)

		var stale, ahead []func() error
		var other func() error
		inOneCommit(t, s, gate, func() int {
			stale = []func() error{s.QueueAppend(t.Context(), move("g1", 0)), s.QueueAppend(t.Context(), move("g1", 1))} // g1 is at 1
			other = s.QueueAppend(t.Context(), move("g2", 0))
			ahead = []func() error{s.QueueAppend(t.Context(), move("g1", 4)), s.QueueAppend(t.Context(), move("g1", 5))}
			return 5
		})
		requireCode(t, stale[0](), domain.Conflict)
		require.NoError(t, stale[1](), "it expected the version g1 is at")
		require.NoError(t, other())
		for _, wait := range ahead {
			requireCode(t, wait(), domain.Conflict)
		}
		g, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, int64(2), g.Version)
		moves, err := s.Moves(t.Context(), "g1", 0, 0)
		require.NoError(t, err)
		assert.Len(t, moves, 2)
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

// commitSizes records how many writes each commit grouped.
type commitSizes struct {
	mu    sync.Mutex
	sizes []int
}

func (c *commitSizes) option() sqlite.Option {
	return sqlite.WithCommitObserver(func(_ time.Duration, n int) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.sizes = append(c.sizes, n)
	})
}

func (c *commitSizes) get() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]int(nil), c.sizes...)
}

// groupOfTwo makes the writer commit a group of two writes (the blocker and
// game g2), after which it lingers for the next group.
func groupOfTwo(t *testing.T, s *sqlite.Store, gate *writerGate) {
	t.Helper()
	release, blocker := gate.hold(t, s, "blocker")
	created := make(chan error, 1)
	go func() {
		g, creds, cat := newGame("g2")
		created <- s.CreateGame(t.Context(), g, creds, cat)
	}()
	waitQueue(t, s, 1)
	release()
	require.NoError(t, <-blocker)
	require.NoError(t, <-created)
}

func TestLinger(t *testing.T) {
	// An hour-long linger makes the gathering visible without timing: a group
	// closes only when it is full, or when the store closes.
	const hour = time.Hour

	t.Run("while writes arrive together, the writer gathers them into one commit", func(t *testing.T) {
		gate, commits := newWriterGate(), &commitSizes{}
		s, _ := openStore(t, gate.option(), commits.option(), sqlite.WithLinger(hour, hour), sqlite.WithMaxBatch(4))
		mustCreate(t, s, "g1")
		groupOfTwo(t, s, gate)

		// Four moves of g1 sent one after another, each queued only once
		// the writer already holds the ones before: one commit of four.
		waits := make([]func() error, 4)
		for v := range int64(4) {
			waits[v] = s.QueueAppend(t.Context(), move("g1", v))
			waitQueue(t, s, 0)
		}
		for _, wait := range waits {
			require.NoError(t, wait())
		}
		assert.Equal(t, []int{1, 2, 4}, commits.get())
		g, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, int64(4), g.Version)
	})

	t.Run("a lone write does not wait for company", func(t *testing.T) {
		commits := &commitSizes{}
		s, _ := openStore(t, commits.option(), sqlite.WithLinger(hour, hour))
		mustCreate(t, s, "g1")
		withinAMinute(t, "three appends one after another", func() { appendN(t, s, "g1", 3) })
		assert.Equal(t, []int{1, 1, 1, 1}, commits.get())
	})

	t.Run("closing the store commits what the writer was gathering", func(t *testing.T) {
		gate := newWriterGate()
		s, path := openStore(t, gate.option(), sqlite.WithLinger(hour, hour), sqlite.WithMaxBatch(8))
		mustCreate(t, s, "g1")
		groupOfTwo(t, s, gate)
		wait := s.QueueAppend(t.Context(), move("g1", 0))
		waitQueue(t, s, 0) // the writer holds it, gathering more
		require.NoError(t, s.Close())
		require.NoError(t, wait())

		var version int64
		require.NoError(t, rawDB(t, path).QueryRow(`SELECT version FROM games WHERE id = 'g1'`).Scan(&version))
		assert.Equal(t, int64(1), version)
	})

	t.Run("with lingering off, a group is what was queued", func(t *testing.T) {
		gate, commits := newWriterGate(), &commitSizes{}
		s, _ := openStore(t, gate.option(), commits.option(), sqlite.WithLinger(hour, hour), sqlite.WithLinger(0, 0))
		mustCreate(t, s, "g1")
		groupOfTwo(t, s, gate)
		withinAMinute(t, "two appends after a group", func() { appendN(t, s, "g1", 2) })
		assert.Equal(t, []int{1, 2, 1, 1}, commits.get())
	})
}

// withinAMinute runs f and fails the test if it has not returned within a
// minute: here, a writer lingering when it should not would wait an hour.
// twoGames opens a store whose writer a gate can hold, with games g1 and g2.
func twoGames(t *testing.T) (*sqlite.Store, *writerGate) {
	t.Helper()
	gate := newWriterGate()
	s, _ := openStore(t, gate.option())
	mustCreate(t, s, "g1")
	mustCreate(t, s, "g2")
	return s, gate
}

// inOneCommit holds the writer while queue queues writes (it returns how
// many), so that they are committed in one group, after a blocker's
// CreateGame.
func inOneCommit(t *testing.T, s *sqlite.Store, gate *writerGate, queue func() int) {
	t.Helper()
	release, blocker := gate.hold(t, s, "blocker")
	waitQueue(t, s, queue())
	release()
	require.NoError(t, <-blocker)
}

func withinAMinute(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s did not commit within a minute: the writer waited for writes that were not coming", what)
	}
}
