package postgres_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/postgres"
	"github.com/treasury-games/treasury/storage/storetest"
)

// commitCounter counts a store's commits and the writes they held.
type commitCounter struct {
	mu              sync.Mutex
	commits, writes int
}

func (c *commitCounter) observe(_ time.Duration, n int) {
	c.mu.Lock()
	c.commits++
	c.writes += n
	c.mu.Unlock()
}

// take returns the counts so far and starts again from zero.
func (c *commitCounter) take() (commits, writes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	commits, writes = c.commits, c.writes
	c.commits, c.writes = 0, 0
	return commits, writes
}

// TestQueueAppend: a game's moves queued one after another without waiting
// are all stored, in order and whole (each move's every field, its
// idempotency record, the game's last snapshot and time), in fewer commits
// than moves; games do not wait for each other.
func TestQueueAppend(t *testing.T) {
	var cc commitCounter
	s, _ := openStore(t, postgres.WithCommitObserver(cc.observe))
	const moves = 40
	// move v of game id: every third hides something, every other has a key.
	move := func(id string, v int64) domain.Append {
		a := storetest.Move(id, v)
		if v%3 == 1 {
			a.Move.Public, a.Move.For, a.Move.NotHost, a.Move.Actor.Host = fmt.Appendf(nil, `{"public":%d}`, v+1), int(v%4), true, true
		}
		if v%2 == 0 {
			a.Idempotency = &domain.IdempotencyRecord{Key: fmt.Sprint("k", v), Scope: "seat", RequestHash: fmt.Sprint("h", v), Status: 200, Response: fmt.Appendf(nil, `{"seq":%d}`, v+1)}
		}
		a.Phase = fmt.Sprint("phase ", v%5)
		return a
	}
	var waits []func() error
	for _, id := range []string{"g1", "g2"} {
		storetest.MustCreate(t, s, id)
	}
	cc.take() // the games' creation
	for v := range int64(moves) {
		for _, id := range []string{"g1", "g2"} {
			waits = append(waits, s.QueueAppend(t.Context(), move(id, v)))
		}
	}
	for _, w := range waits {
		require.NoError(t, w())
	}
	for _, id := range []string{"g1", "g2"} {
		last := move(id, moves-1)
		g, err := s.Game(t.Context(), id)
		require.NoError(t, err)
		assert.Equal(t, int64(moves), g.Version)
		assert.Equal(t, last.State, g.State)
		assert.Equal(t, last.Phase, g.Phase)
		assert.True(t, last.Move.At.Equal(g.UpdatedAt), "updated at the last move's time")
		log, err := s.Moves(t.Context(), id, 0, 0)
		require.NoError(t, err)
		require.Len(t, log, moves)
		for i, m := range log {
			want := move(id, int64(i)).Move
			assert.True(t, want.At.Equal(m.At), "move %d at %v, want %v", i+1, m.At, want.At)
			m.At = want.At
			assert.Equal(t, want, m, "move %d", i+1)
			rec, err := s.Idempotency(t.Context(), id, "seat", fmt.Sprint("k", i))
			require.NoError(t, err)
			if i%2 == 0 {
				require.NotNil(t, rec, "move %d's record", i+1)
				assert.Equal(t, *move(id, int64(i)).Idempotency, *rec)
			} else {
				assert.Nil(t, rec)
			}
		}
	}
	commits, writes := cc.take()
	assert.Equal(t, 2*moves, writes)
	assert.Less(t, commits, 2*moves, "queued moves share commits")
	t.Logf("%d moves in %d commits", writes, commits)
}

// TestQueueAppendChain: a queued move that fails takes every move queued
// after it down with it, since each was applied on top of it; even when the
// version a later move expects is the one another server stored meanwhile,
// nothing of another state is stored on top of it.
func TestQueueAppendChain(t *testing.T) {
	t.Run("another server stored the version first", func(t *testing.T) {
		s, url := openStore(t)
		other := openURL(t, url)
		storetest.MustCreate(t, s, "g")
		require.NoError(t, other.Append(t.Context(), storetest.Move("g", 0)))
		// This server applied three moves to version 0; the second
		// expects version 1, which the game is at, but not with the
		// first of them.
		var waits []func() error
		for v := range int64(3) {
			a := storetest.Move("g", v)
			a.Move.Move = []byte(`{"mine":true}`)
			waits = append(waits, s.QueueAppend(t.Context(), a))
		}
		for _, w := range waits {
			storetest.RequireCode(t, w(), domain.Conflict)
		}
		log, err := s.Moves(t.Context(), "g", 0, 0)
		require.NoError(t, err)
		require.Len(t, log, 1, "only the other server's move is stored")
		assert.Equal(t, storetest.Move("g", 0).Move.Move, log[0].Move)
	})
	t.Run("a key stored before", func(t *testing.T) {
		s, _ := openStore(t)
		storetest.MustCreate(t, s, "g")
		keyed := func(v int64, key string) domain.Append {
			a := storetest.Move("g", v)
			a.Idempotency = &domain.IdempotencyRecord{Key: key, Scope: "seat", RequestHash: "h", Status: 200, Response: []byte(`{"seq":1}`)}
			return a
		}
		require.NoError(t, s.Append(t.Context(), keyed(0, "k0")))
		waits := []func() error{
			s.QueueAppend(t.Context(), keyed(1, "k1")),
			s.QueueAppend(t.Context(), keyed(2, "k0")), // a retry's key
			s.QueueAppend(t.Context(), keyed(3, "k3")),
		}
		require.NoError(t, waits[0]())
		storetest.RequireCode(t, waits[1](), domain.Conflict)
		storetest.RequireCode(t, waits[2](), domain.Conflict)
		g, err := s.Game(t.Context(), "g")
		require.NoError(t, err)
		assert.Equal(t, int64(2), g.Version, "the move before the key's is stored, none after it")
		rec, err := s.Idempotency(t.Context(), "g", "seat", "k3")
		require.NoError(t, err)
		assert.Nil(t, rec)
	})
}

// TestQueueAppendRevisions: each of a game's moves queued together is
// stored only while the game's credentials are at the revision its actor
// was authenticated at: the one authenticated at another revision fails,
// with every move queued after it, and the moves before it are stored.
func TestQueueAppendRevisions(t *testing.T) {
	s, _ := openStore(t)
	storetest.MustCreate(t, s, "g")
	at := func(v, rev int64) domain.Append {
		a := storetest.Move("g", v)
		a.Credentials = &rev
		return a
	}
	waits := []func() error{
		s.QueueAppend(t.Context(), at(0, 0)),
		s.QueueAppend(t.Context(), at(1, 0)),
		s.QueueAppend(t.Context(), at(2, 1)), // a revision the game is not at
		s.QueueAppend(t.Context(), at(3, 0)),
	}
	require.NoError(t, waits[0]())
	require.NoError(t, waits[1]())
	storetest.RequireCode(t, waits[2](), domain.Conflict)
	storetest.RequireCode(t, waits[3](), domain.Conflict)
	g, err := s.Game(t.Context(), "g")
	require.NoError(t, err)
	assert.Equal(t, int64(2), g.Version)
	assert.Equal(t, storetest.Move("g", 1).State, g.State)
	log, err := s.Moves(t.Context(), "g", 0, 0)
	require.NoError(t, err)
	assert.Len(t, log, 2)
}

// TestAppendExpectState: a server whose head holds a move of its own that
// lost the race for a version may apply its next move to that head; the
// append expects the version that is stored, but on another game than the
// stored one, and nothing of it is stored, sent alone or first of a batch.
func TestAppendExpectState(t *testing.T) {
	s, url := openStore(t)
	other := openURL(t, url)
	for _, id := range []string{"alone", "batch"} {
		storetest.MustCreate(t, s, id)
		require.NoError(t, other.Append(t.Context(), storetest.Move(id, 0))) // another server's version 1
	}
	// This server's version 1 of the game, which lost the race.
	mine := []byte(`{"round":1,"mine":true}`)
	next := func(id string, v int64, base []byte) domain.Append {
		a := storetest.Move(id, v)
		a.ExpectState = base
		return a
	}
	storetest.RequireCode(t, s.Append(t.Context(), next("alone", 1, mine)), domain.Conflict)
	waits := []func() error{
		s.QueueAppend(t.Context(), next("batch", 1, mine)),
		s.QueueAppend(t.Context(), next("batch", 2, nil)),
		s.QueueAppend(t.Context(), next("batch", 3, nil)),
	}
	for _, w := range waits {
		storetest.RequireCode(t, w(), domain.Conflict)
	}
	for _, id := range []string{"alone", "batch"} {
		g, err := s.Game(t.Context(), id)
		require.NoError(t, err)
		assert.Equal(t, int64(1), g.Version, "game %s", id)
	}
	// On the game as stored, the same move is stored.
	require.NoError(t, s.Append(t.Context(), next("alone", 1, storetest.Move("alone", 0).State)))
}

// TestQueueAppendGames: the moves of many games queued at once share
// commits across games (as the SQLite writer's do); a game whose move
// reuses a key stored before gets Conflict without taking down the moves of
// the games it shared a transaction with.
func TestQueueAppendGames(t *testing.T) {
	var cc commitCounter
	s, _ := openStore(t, postgres.WithCommitObserver(cc.observe))
	const games = 32
	keyed := func(id string, v int64, key string) domain.Append {
		a := storetest.Move(id, v)
		a.Idempotency = &domain.IdempotencyRecord{Key: key, Scope: "seat", RequestHash: "h", Status: 200, Response: []byte(`{"seq":1}`)}
		return a
	}
	for g := range games {
		id := fmt.Sprint("g", g)
		storetest.MustCreate(t, s, id)
		require.NoError(t, s.Append(t.Context(), keyed(id, 0, "k0")))
	}
	// retry says which games' moves reuse the key of their first move.
	round := func(v int64, retry func(g int) bool) int {
		cc.take()
		waits := make([]func() error, games)
		for g := range games {
			key := fmt.Sprint("k", v)
			if retry(g) {
				key = "k0"
			}
			waits[g] = s.QueueAppend(t.Context(), keyed(fmt.Sprint("g", g), v, key))
		}
		stored := 0
		for g, w := range waits {
			err := w()
			rec, rerr := s.Game(t.Context(), fmt.Sprint("g", g))
			require.NoError(t, rerr)
			if retry(g) {
				storetest.RequireCode(t, err, domain.Conflict)
				assert.Equal(t, v, rec.Version, "game %d: the move with a reused key is not stored", g)
				continue
			}
			require.NoError(t, err, "game %d", g)
			assert.Equal(t, v+1, rec.Version, "game %d", g)
			stored++
		}
		commits, writes := cc.take()
		assert.Equal(t, stored, writes)
		return commits
	}
	n := round(1, func(int) bool { return false })
	assert.Less(t, n, games/2, "the moves of %d games queued at once", games)
	t.Logf("%d games' moves in %d commits", games, n)
	n = round(2, func(g int) bool { return g%8 == 3 })
	t.Logf("%d games' moves, %d of them with a reused key, in %d commits", games, games/8, n)
}

// TestAppendWriterGuard: a move applied to the snapshot this store wrote is
// checked by the transaction that wrote it, not by the snapshot's bytes: it
// is stored while the game's row is that transaction's, stored when sent
// again once another server set a seat (the row is the seat's transaction's
// then, and the snapshot is compared), and refused when the game at that
// version is another server's (the game deleted, made again and moved).
func TestAppendWriterGuard(t *testing.T) {
	s, url := openStore(t)
	other := openURL(t, url)
	mine := []byte(`{"round":1,"mine":true}`)
	move := func(id string, v int64, base, state []byte) domain.Append {
		a := storetest.Move(id, v)
		a.ExpectState, a.State = base, state
		return a
	}
	created := storetest.MustCreate(t, s, "g").State
	require.NoError(t, s.Append(t.Context(), move("g", 0, created, mine)))
	require.NoError(t, s.QueueAppend(t.Context(), move("g", 1, mine, []byte(`{"round":2}`)))(), "applied to this store's version 1")

	t.Run("another server set a seat", func(t *testing.T) {
		g, err := s.Game(t.Context(), "g")
		require.NoError(t, err)
		require.NoError(t, other.SetSeat(t.Context(), "g", 0, "another-hash", false))
		a := move("g", g.Version, g.State, []byte(`{"round":3}`))
		if err := s.Append(t.Context(), a); err != nil {
			storetest.RequireCode(t, err, domain.Conflict)
			require.NoError(t, s.Append(t.Context(), a), "sent again")
		}
	})
	t.Run("the game at the version is another server's", func(t *testing.T) {
		_, err := other.DeleteIdleGames(t.Context(), time.Now().Add(time.Hour))
		require.NoError(t, err)
		base := storetest.MustCreate(t, other, "g").State
		for v := range int64(3) {
			a := move("g", v, base, []byte(fmt.Sprintf(`{"round":%d,"other":true}`, v+1)))
			require.NoError(t, other.Append(t.Context(), a))
			base = a.State
		}
		storetest.RequireCode(t, s.QueueAppend(t.Context(), move("g", 3, []byte(`{"round":3}`), []byte(`{"round":4}`)))(), domain.Conflict)
		g, err := s.Game(t.Context(), "g")
		require.NoError(t, err)
		assert.Equal(t, int64(3), g.Version)
		assert.Equal(t, base, g.State)
	})
}
