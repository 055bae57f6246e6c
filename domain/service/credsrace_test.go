package service_test

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// readHeldStore holds back, once armed, the answer of its next read of a
// game's credentials: it reads them, says so, and answers when released.
type readHeldStore struct {
	*sqlite.Store
	armed   atomic.Bool
	read    chan struct{}
	release chan struct{}
}

func (s *readHeldStore) Credentials(ctx context.Context, id string) (domain.Credentials, error) {
	c, err := s.Store.Credentials(ctx, id)
	if s.armed.CompareAndSwap(true, false) {
		close(s.read)
		<-s.release
	}
	return c, err
}

// TestReissueDuringCredentialsRead: a seat is issued a new credential while
// a request (another of the seat's, say its event stream's check) is reading
// the game's credentials from the store. What that request read is from
// before: kept, it would let the lost credential act for the seat and refuse
// the new one until the server restarts. The new credential acts for the
// seat and the old one is refused, whatever the order.
func TestReissueDuringCredentialsRead(t *testing.T) {
	ctx := t.Context()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	held := &readHeldStore{Store: st, read: make(chan struct{}), release: make(chan struct{})}
	s := service.New(held, silvergold.NewRules())
	c, err := s.Create(ctx, silvergold.RulesetName, domain.CreateRequest{Mode: domain.Digital, Players: []string{"Ann", "Ben"}})
	require.NoError(t, err)
	id, lost := c.Game.ID, c.Seat[0]
	_, err = s.Authenticate(ctx, id, lost) // the seat is taken: the cached credentials are read again at the next call
	require.NoError(t, err)

	held.armed.Store(true)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = s.Authenticate(ctx, id, lost) // either answer is right: it runs while the seat changes
	}()
	<-held.read // it has read the credentials as they were
	issued, err := s.ReissueSeat(ctx, id, domain.Actor{Host: true}, 0)
	require.NoError(t, err)
	close(held.release)
	<-done

	a, err := s.Authenticate(ctx, id, issued.Credential)
	require.NoError(t, err, "the new credential")
	require.Equal(t, domain.Actor{Seat: 0}, a)
	_, err = s.Authenticate(ctx, id, lost)
	require.Equal(t, domain.Unauthorized, domain.ErrorCode(err), "the lost credential: %v", err)
}
