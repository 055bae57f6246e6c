package postgres_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/postgres"
	"github.com/treasury-games/treasury/storage/storetest"
)

func TestVersion(t *testing.T) {
	s, _ := openStore(t)
	storetest.MustCreate(t, s, "g1")
	v, err := s.Version(t.Context(), "g1")
	require.NoError(t, err)
	assert.Equal(t, domain.Revision{}, v)
	storetest.AppendN(t, s, "g1", 3)
	v, err = s.Version(t.Context(), "g1")
	require.NoError(t, err)
	assert.Equal(t, domain.Revision{Version: 3}, v)
	_, err = s.Version(t.Context(), "nope")
	assert.Equal(t, domain.NotFound, domain.ErrorCode(err))
}

// TestCredentialsRevision: every seat set moves the game's credentials to
// their next revision, which the version read and the credentials read
// tell, and an append that names a revision stores its move only at it.
func TestCredentialsRevision(t *testing.T) {
	s, _ := openStore(t)
	ctx := t.Context()
	storetest.MustCreate(t, s, "g1")
	c, err := s.Credentials(ctx, "g1")
	require.NoError(t, err)
	assert.Equal(t, int64(0), c.Revision)

	require.NoError(t, s.SetSeat(ctx, "g1", 0, "seat0-g1", true)) // taken with its own credential
	v, err := s.Version(ctx, "g1")
	require.NoError(t, err)
	assert.Equal(t, domain.Revision{}, v, "a seat taken with its own credential changes no credential")
	require.NoError(t, s.SetSeat(ctx, "g1", 2, "picked", true)) // picked on the join page
	require.NoError(t, s.SetSeat(ctx, "g1", 1, "fresh", false)) // issued again
	storetest.RequireCode(t, s.SetSeat(ctx, "g1", 0, "other", true), domain.Conflict)
	storetest.RequireCode(t, s.SetSeat(ctx, "g1", 7, "x", false), domain.NotFound)
	storetest.RequireCode(t, s.SetSeat(ctx, "nope", 0, "x", false), domain.NotFound)
	v, err = s.Version(ctx, "g1")
	require.NoError(t, err)
	assert.Equal(t, domain.Revision{Version: 0, Credentials: 2}, v, "two credentials replaced; the refusals changed nothing")
	c, err = s.Credentials(ctx, "g1")
	require.NoError(t, err)
	assert.Equal(t, int64(2), c.Revision)
	assert.Equal(t, "fresh", c.SeatHashes[1])

	at := func(rev int64) domain.Append {
		a := storetest.Move("g1", v.Version)
		a.Credentials = &rev
		return a
	}
	err = s.Append(ctx, at(1))
	storetest.RequireCode(t, err, domain.Conflict)
	var de *domain.Error
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "table.store.credentials", de.Msg.Key, "the version was right, the credentials were not")
	require.NoError(t, s.Append(ctx, at(2)))
	v.Version++
	require.NoError(t, s.Append(ctx, storetest.Move("g1", v.Version)), "an append naming no revision checks none")
	v, err = s.Version(ctx, "g1")
	require.NoError(t, err)
	assert.Equal(t, domain.Revision{Version: 2, Credentials: 2}, v)

	e, err := s.ExportGame(ctx, "g1")
	require.NoError(t, err)
	assert.Equal(t, int64(0), e.Credentials.Revision, "an export carries no revision of this database")
}

// openURL opens another store on the database at url, as another server would.
func openURL(t *testing.T, url string, opts ...postgres.Option) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(t.Context(), url, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

type notice struct {
	id  string
	seq int64
}

func TestWatchMoves(t *testing.T) {
	// Two stores on one database stand for two servers.
	a, url := openStore(t)
	b := openURL(t, url)
	notices := make(chan notice, 100)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- b.WatchMoves(ctx, func(id string, seq int64) { notices <- notice{id, seq} })
	}()
	next := func() notice {
		t.Helper()
		select {
		case n := <-notices:
			return n
		case <-time.After(10 * time.Second):
			t.Fatal("no notice within 10s")
			return notice{}
		}
	}
	// The watch may not be listening yet: append until a notice arrives.
	storetest.MustCreate(t, a, "g1")
	var first notice
	for v := int64(0); ; v++ {
		require.NoError(t, a.Append(t.Context(), storetest.Move("g1", v)))
		select {
		case first = <-notices:
			if first.id == "" {
				continue // "listening": the next move is noticed
			}
		case <-time.After(50 * time.Millisecond):
			continue
		}
		break
	}
	assert.Equal(t, "g1", first.id)
	v, err := a.Version(t.Context(), "g1")
	require.NoError(t, err)
	for n := first; n.seq < v.Version; {
		n = next()
		assert.Equal(t, "g1", n.id)
	}

	t.Run("a move that is not stored is not noticed", func(t *testing.T) {
		storetest.RequireCode(t, a.Append(t.Context(), storetest.Move("g1", v.Version-1)), domain.Conflict)
		require.NoError(t, a.Append(t.Context(), storetest.Move("g1", v.Version)))
		assert.Equal(t, notice{"g1", v.Version + 1}, next(), "the conflict sent nothing; the next move is noticed")
	})

	t.Run("every move of every game, in order per game", func(t *testing.T) {
		storetest.MustCreate(t, a, "g2")
		storetest.AppendN(t, a, "g2", 5)
		for want := int64(1); want <= 5; want++ {
			assert.Equal(t, notice{"g2", want}, next())
		}
	})

	t.Run("a lost connection is made again and says notices may be lost", func(t *testing.T) {
		var killed int
		require.NoError(t, rawConn(t, url).QueryRow(t.Context(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE datname = current_database() AND query = 'LISTEN treasury_moves'`).Scan(&killed))
		require.Equal(t, 1, killed, "the watch's connection")
		assert.Equal(t, notice{"", 0}, next(), "once listening again")
		require.NoError(t, a.Append(t.Context(), storetest.Move("g2", 5)))
		assert.Equal(t, notice{"g2", 6}, next())
	})

	cancel()
	assert.ErrorIs(t, <-done, context.Canceled)
}

// TestOwnNoticesDropped: a store's watch hears the moves other stores (other
// servers) store, not those it stored itself, whose server has told them
// already. A third store's watch hears both, so both notices were sent.
func TestOwnNoticesDropped(t *testing.T) {
	a, url := openStore(t)
	b, witness := openURL(t, url), openURL(t, url)
	watch := func(s *postgres.Store) <-chan notice {
		ch := make(chan notice, 1000)
		go func() {
			_ = s.WatchMoves(t.Context(), func(id string, seq int64) {
				if id != "" {
					ch <- notice{id, seq}
				}
			})
		}()
		return ch
	}
	heardByA, heardByWitness := watch(a), watch(witness)
	// until waits for want on ch, returning the notices heard before it.
	until := func(ch <-chan notice, want notice, who string) (before []notice) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case n := <-ch:
				if n == want {
					return before
				}
				before = append(before, n)
			case <-deadline:
				t.Fatalf("%s did not hear %v within 10s (heard %v)", who, want, before)
				return nil
			}
		}
	}
	// heard waits up to 50ms for a notice on ch.
	heard := func(ch <-chan notice) bool {
		select {
		case n := <-ch:
			return n.id != "" // put nothing back: the callers only need to know a watch listens
		case <-time.After(50 * time.Millisecond):
			return false
		}
	}
	storetest.MustCreate(t, a, "ga")
	storetest.MustCreate(t, b, "gb")
	// The watches may not be listening yet: append until the witness hears
	// a's moves and a hears b's.
	var va, vb int64
	for ; !heard(heardByWitness); va++ {
		require.NoError(t, a.Append(t.Context(), storetest.Move("ga", va)))
	}
	for ; !heard(heardByA); vb++ {
		require.NoError(t, b.Append(t.Context(), storetest.Move("gb", vb)))
	}
	// Both listen: a's own move, told to the witness, then b's.
	require.NoError(t, a.Append(t.Context(), storetest.Move("ga", va)))
	until(heardByWitness, notice{"ga", va + 1}, "the witness")
	require.NoError(t, b.Append(t.Context(), storetest.Move("gb", vb)))
	for _, n := range until(heardByA, notice{"gb", vb + 1}, "a") {
		assert.Equal(t, "gb", n.id, "a heard a move of its own: %v", n)
	}
}

// TestNoticesAfterCommit: the moves of many games appended at once are all
// noticed, each once and in order per game, in fewer notifying transactions
// than moves when they come together; and a store told to lose a notice
// never sends it (the move is stored all the same).
func TestNoticesAfterCommit(t *testing.T) {
	a, url := openStore(t)
	listener := rawConn(t, url)
	_, err := listener.Exec(t.Context(), `LISTEN treasury_moves`)
	require.NoError(t, err)
	const games, moves = 8, 25
	for g := range games {
		storetest.MustCreate(t, a, fmt.Sprint("g", g))
	}
	var wg sync.WaitGroup
	for g := range games {
		wg.Go(func() {
			for v := range int64(moves) {
				assert.NoError(t, a.Append(t.Context(), storetest.Move(fmt.Sprint("g", g), v)))
			}
		})
	}
	wg.Wait()
	last := map[string]int64{}
	received, payloads := 0, 0
	for received < games*moves {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		n, err := listener.WaitForNotification(ctx)
		cancel()
		require.NoError(t, err, "%d of %d notices received", received, games*moves)
		payloads++
		for line := range strings.SplitSeq(n.Payload, "\n") {
			id, seq, ok := strings.Cut(line, " ")
			require.True(t, ok, "notice %q", line)
			v, err := strconv.ParseInt(seq, 10, 64)
			require.NoError(t, err)
			require.Equal(t, last[id]+1, v, "game %s: notice of move %d after %d", id, v, last[id])
			last[id] = v
			received++
		}
	}
	t.Logf("%d moves told in %d notices", received, payloads)

	lost := openURL(t, url, postgres.WithLostNotices(func(id string, seq int64) bool { return seq == moves+1 }))
	require.NoError(t, lost.Append(t.Context(), storetest.Move("g0", moves)))
	require.NoError(t, lost.Append(t.Context(), storetest.Move("g0", moves+1)))
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	n, err := listener.WaitForNotification(ctx)
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("g0 %d", moves+2), n.Payload, "move %d's notice was lost, the next one's was not", moves+1)
	v, err := a.Version(t.Context(), "g0")
	require.NoError(t, err)
	assert.Equal(t, int64(moves+2), v.Version, "the move whose notice was lost is stored")
}

// TestNoticesSpaced: moves stored one after another, each a commit of its
// own, are told in at most one notifying statement per NoticeInterval (each
// wakes every listening server), and every one of them is told, in order.
func TestNoticesSpaced(t *testing.T) {
	a, url := openStore(t)
	listener := rawConn(t, url)
	_, err := listener.Exec(t.Context(), `LISTEN treasury_moves`)
	require.NoError(t, err)
	const moves = 60
	storetest.MustCreate(t, a, "g")
	start := time.Now()
	for v := range int64(moves) {
		require.NoError(t, a.Append(t.Context(), storetest.Move("g", v)))
	}
	var told []int64
	statements := 0
	for len(told) < moves {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		n, err := listener.WaitForNotification(ctx)
		cancel()
		require.NoError(t, err, "%d of %d notices received", len(told), moves)
		statements++
		for line := range strings.SplitSeq(n.Payload, "\n") {
			_, seq, _ := strings.Cut(line, " ")
			v, err := strconv.ParseInt(seq, 10, 64)
			require.NoError(t, err, "notice %q", line)
			told = append(told, v)
		}
	}
	spent := time.Since(start)
	for i, v := range told {
		require.Equal(t, int64(i+1), v, "the moves told, in order: %v", told)
	}
	most := int(spent/postgres.NoticeInterval) + 1
	t.Logf("%d moves in %v told in %d notifying statements (at most %d)", moves, spent, statements, most)
	assert.LessOrEqual(t, statements, most, "%d moves stored one by one in %v", moves, spent)
}
