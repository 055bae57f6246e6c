package service_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/storage/postgres"
	"github.com/treasury-games/treasury/storage/postgres/pgtest"
)

// slowStore is one server's PostgreSQL store whose appends of one seat's
// move are answered to the service only when the test says so: the store
// has answered (and gone on with the game's next appends), and the player
// that made the move has not yet taken the game's lock again, as on a
// loaded machine.
type slowStore struct {
	*postgres.Store
	seat     int
	answered chan error    // the first answer to seat's append, before the player hears it
	release  chan struct{} // closed to let the player hear it
	once     sync.Once
	others   chan error // the answers to the other seats' appends
}

func (s *slowStore) QueueAppend(ctx context.Context, a domain.Append) func() error {
	wait := s.Store.QueueAppend(ctx, a)
	return func() error {
		err := wait()
		if a.Move.Actor.Seat != s.seat {
			s.others <- err
			return err
		}
		s.once.Do(func() {
			s.answered <- err
			<-s.release
		})
		return err
	}
}

// TestSharedMoveOnLostRace: server A applies seat 0's keep to version 0 of
// a game while server B stores seat 1's keep as version 1; A's append loses
// the race. Before A's player hears so, seat 2's keep comes to A, which
// applies it to its head (seat 0's keep, which will never be stored) and
// stores it at version 2. The store must refuse it, as the game it was
// applied to is not the one stored: both keeps are then decided again on
// the stored game, both are stored, and the log replays to the stored game.
func TestSharedMoveOnLostRace(t *testing.T) {
	url := pgtest.Database(t)
	ctx := t.Context()
	open := func() *postgres.Store {
		st, err := postgres.Open(ctx, url)
		require.NoError(t, err)
		t.Cleanup(func() { st.Close() })
		return st
	}
	slow := &slowStore{Store: open(), seat: 0, answered: make(chan error, 1), release: make(chan struct{}), others: make(chan error, 16)}
	a, b := service.New(slow, rulesets.All()...), service.New(open(), rulesets.All()...)
	id, keeps := newTable(t, a) // A holds the game at version 0

	_, err := b.Play(ctx, id, domain.Actor{Seat: 1}, keeps[1], domain.PlayOptions{})
	require.NoError(t, err)
	first := playAsync(a, id, 0, keeps[0], domain.PlayOptions{})
	require.Equal(t, domain.Conflict, domain.ErrorCode(<-slow.answered), "A's append of seat 0's keep at version 0 loses the race")
	second := playAsync(a, id, 2, keeps[2], domain.PlayOptions{})
	<-slow.others // seat 2's append is answered
	close(slow.release)
	for i, ch := range []<-chan outcome{first, second} {
		o := recv(t, ch)
		require.NoError(t, o.err, "keep %d", i)
	}

	st := open()
	rec, err := st.Game(ctx, id)
	require.NoError(t, err)
	require.EqualValues(t, 3, rec.Version)
	moves, err := st.Moves(ctx, id, 0, 0)
	require.NoError(t, err)
	requireReplays(t, st, rec, moves)
}

// requireReplays checks that the game's log, replayed move by move from its
// setup, gives the game as stored.
func requireReplays(t *testing.T, st domain.Store, rec domain.GameRecord, moves []domain.MoveRecord) {
	t.Helper()
	all := rulesets.All()
	rules := all[slices.IndexFunc(all, func(r domain.Ruleset) bool { return r.Name() == rec.Ruleset })]
	cat, err := st.Catalog(t.Context(), rec.CatalogHash)
	require.NoError(t, err)
	stored, err := rules.Restore(rec.State, cat)
	require.NoError(t, err)
	rm := make([]domain.ReplayMove, len(moves))
	for i, m := range moves {
		rm[i] = domain.ReplayMove{Actor: m.Actor, Move: m.Move}
	}
	g, bad, err := domain.ReplayLog(rules, stored.Setup(), cat, rm)
	require.NoError(t, err, "move %d of the log does not replay", bad)
	snap, err := g.Snapshot()
	require.NoError(t, err)
	require.Equal(t, string(rec.State), string(snap), "the log replays to another game than the one stored")
}
