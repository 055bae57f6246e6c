package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/treasury-games/treasury/domain"
)

var _ domain.AppendQueuer = (*Store)(nil)

// A game's appends queued while one of its commits is in flight go together
// in one round trip and one commit when it ends: the appends of a batch are
// sent in one pipeline that ends in one Sync, which PostgreSQL runs as one
// implicit transaction. The service queues a game's move on the head the
// moves before it left, so each append expects the version the one before
// it stores: every append of a batch after the first is appendChainedSQL,
// which matches only the row this transaction wrote, and once an append
// fails, every later one of the game that is queued fails with it (Conflict)
// without being sent, since each was applied on top of it. (One applied on
// top of it after its answer is queued behind nothing: the first append of a
// batch compares the game's snapshot with the one its move was applied to,
// Append.ExpectState, and fails instead.) A statement that fails (an
// idempotency key stored before) rolls the whole batch back; its appends are
// then sent again one by one, each in its own transaction, up to the first
// that fails. Games do not wait for each other: each has its own queue, and
// one goroutine while it is not empty.

// gameQueue is the appends of one game waiting for its commit in flight.
type gameQueue struct {
	waiting []*queuedAppend
}

type queuedAppend struct {
	a    domain.Append
	err  error // its answer, once sent
	done chan error
}

// QueueAppend hands a to the game's queue and returns at once; wait returns
// what Append would have, after the commit. An append queued while none of
// its game is in flight is sent at once.
func (s *Store) QueueAppend(ctx context.Context, a domain.Append) (wait func() error) {
	q := &queuedAppend{a: a, done: make(chan error, 1)}
	s.qmu.Lock()
	gq := s.queues[a.GameID]
	first := gq == nil
	if first {
		gq = &gameQueue{}
		s.queues[a.GameID] = gq
	}
	gq.waiting = append(gq.waiting, q)
	s.qmu.Unlock()
	if first {
		go s.sendQueued(context.WithoutCancel(ctx), a.GameID, gq)
	}
	return func() error { return <-q.done }
}

// sendQueued sends the appends of game id's queue, each batch when the one
// before is committed, until the queue is empty.
func (s *Store) sendQueued(ctx context.Context, id string, gq *gameQueue) {
	var batch []*queuedAppend
	for {
		s.qmu.Lock()
		var failed error
		for _, q := range batch {
			if q.err != nil {
				failed = q.err
				break
			}
		}
		if failed != nil {
			// Everything queued meanwhile was applied on top of the
			// failed append: it fails too, before any answer lets the
			// service read the game again and queue anew.
			batch = append(batch, gq.waiting...)
			for _, q := range gq.waiting {
				q.err = failed
			}
			gq.waiting = nil
		}
		next := gq.waiting
		gq.waiting = nil
		if len(next) == 0 {
			delete(s.queues, id)
		}
		s.qmu.Unlock()
		for _, q := range batch {
			q.done <- q.err
		}
		if len(next) == 0 {
			return
		}
		batch = next
		s.appendBatch(ctx, batch)
	}
}

// appendBatch stores the appends of one game in order, in one transaction
// when it can, and sets each one's answer: after the first that fails,
// every later one fails with it.
func (s *Store) appendBatch(ctx context.Context, batch []*queuedAppend) {
	if len(batch) == 1 {
		batch[0].err = s.Append(ctx, batch[0].a)
		return
	}
	for _, q := range batch {
		if err := checkFollows(q.a); err != nil {
			s.oneByOne(ctx, batch)
			return
		}
	}
	if err := s.enter(); err != nil {
		for _, q := range batch {
			q.err = err
		}
		return
	}
	start := time.Now()
	var b pgx.Batch
	for i, q := range batch {
		sql := appendChainedSQL
		if i == 0 {
			sql = appendSQL
		}
		b.Queue(sql, appendArgs(q.a, i > 0)...)
	}
	counts := make([]int, len(batch))
	br := s.pool.SendBatch(ctx, &b)
	var err error
	for i := range batch {
		if err = br.QueryRow().Scan(&counts[i]); err != nil {
			break
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	s.leave()
	if err != nil {
		s.oneByOne(ctx, batch) // nothing of the batch is stored
		return
	}
	stored := 0
	for i, q := range batch {
		if counts[i] == 0 {
			if i == 0 || batch[i-1].err == nil {
				q.err = s.appendFailed(ctx, q.a)
			} else {
				q.err = batch[i-1].err
			}
			continue
		}
		stored++
		s.notices.told(q.a.GameID, q.a.Move.Seq)
	}
	if s.onCommit != nil && stored > 0 {
		s.onCommit(time.Since(start), stored)
	}
}

// oneByOne stores the appends one after another, each in its own
// transaction, up to the first that fails; the later ones fail with it.
func (s *Store) oneByOne(ctx context.Context, batch []*queuedAppend) {
	var failed error
	for _, q := range batch {
		if failed == nil {
			failed = s.Append(ctx, q.a)
		}
		q.err = failed
	}
}

// appendFailed explains why an append of a batch matched no row.
func (s *Store) appendFailed(ctx context.Context, a domain.Append) error {
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	return s.versionMismatch(ctx, a.GameID, a.ExpectVersion, a.Credentials)
}
