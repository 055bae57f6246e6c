package api

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// stepDeadlines hands the steps of the event streams the context their
// reads of the store run in: one that ends no sooner than the stream's
// write timeout from now, and at most deadlineSlack later, shared by every
// step that starts within deadlineSlack of another. A context and a timer
// of each step's own cost 3-4% of a stream's step after every move (issue
// 27), and a step's reads, most often none at all (a listing kept, the
// updates live), need only to be bounded.
var stepDeadlines sharedDeadline

// deadlineSlack is how much longer than asked a shared deadline may be:
// about one context and timer a second for all the server's streams.
const deadlineSlack = time.Second

// sharedDeadline is a context with a deadline, made again when it no
// longer leaves the time asked for.
type sharedDeadline struct {
	cur atomic.Pointer[deadlineCtx]
	mu  sync.Mutex // makes one new context at a time
}

type deadlineCtx struct {
	ctx    context.Context
	cancel context.CancelFunc // never called: the context ends at its deadline, its timer with it
	at     time.Time          // ctx's deadline
	d      time.Duration      // the time ctx was made to leave
}

// within returns a context that ends between d and d+deadlineSlack from
// now.
func (s *sharedDeadline) within(d time.Duration) context.Context {
	now := time.Now()
	if c := s.cur.Load(); c != nil && c.d == d && c.at.Sub(now) >= d {
		return c.ctx
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.cur.Load(); c != nil && c.d == d && c.at.Sub(now) >= d {
		return c.ctx
	}
	c := &deadlineCtx{at: now.Add(d + deadlineSlack), d: d}
	c.ctx, c.cancel = context.WithDeadline(context.Background(), c.at)
	s.cur.Store(c)
	return c.ctx
}
