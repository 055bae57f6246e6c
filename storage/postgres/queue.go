package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/treasury-games/treasury/domain"
)

var _ domain.AppendQueuer = (*Store)(nil)

// A game's appends queued while one of its commits is in flight go together
// in one round trip and one commit when it ends: the appends of a batch are
// sent in one pipeline that ends in one Sync, which PostgreSQL runs as one
// implicit transaction. The service queues a game's move on the head the
// moves before it left, so each append expects the version the one before
// it stores: the batch goes as one statement (appendSQL, the game's row
// updated once for all its moves), or as a few when an append does not
// follow the one before it or was authenticated at another revision of the
// credentials (runStarts); each run after the first is appendChainedSQL,
// which matches only the row this transaction wrote. Once an append
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
// when it can (shared with the batches of other games ready at the same
// time: see group), and sets each one's answer: after the first that
// fails, every later one fails with it.
func (s *Store) appendBatch(ctx context.Context, batch []*queuedAppend) {
	for _, q := range batch {
		if err := checkFollows(q.a); err != nil {
			s.oneByOne(ctx, batch)
			return
		}
	}
	gb := &groupBatch{ctx: ctx, batch: batch, counts: make([]int, len(batch))}
	for try := 0; ; try++ {
		gb.done, gb.err, gb.failed = make(chan struct{}), nil, false
		s.group.submit(gb, s.commitGroup)
		<-gb.done
		if gb.err == nil {
			break
		}
		// Nothing of the transaction is stored. A batch that another
		// game's statement failed goes in the next transaction once more.
		if gb.failed || try == maxGroupTries {
			s.oneByOne(ctx, batch)
			return
		}
	}
	for i, q := range batch {
		if gb.counts[i] == 0 {
			if i == 0 || batch[i-1].err == nil {
				q.err = s.appendFailed(ctx, q.a)
			} else {
				q.err = batch[i-1].err
			}
			continue
		}
		s.heads.wrote(q.a, gb.xid)
		s.notices.told(q.a.GameID, q.a.Move.Seq)
	}
}

// Group commit: the batches of several games ready at once go in one
// pipeline and one transaction, as the SQLite writer commits the moves of
// every game queued meanwhile together, so that a commit, its round trip
// and PostgreSQL's work per transaction are shared by the moves of many
// games (one server in the load run: 1.7 moves per commit with a
// transaction per game, as SQLite's 7.9). At most group.most such
// transactions are in flight at once; batches ready meanwhile wait for one
// to end and go together in the next. The games of a transaction are
// locked in the order of their ids, so two servers' transactions cannot
// wait on each other's rows. An append that matches no row (another server
// stored the version first) fails alone; a statement that fails (an
// idempotency key stored before) rolls the whole transaction back: its
// game's batch is then sent again one append at a time, each in its own
// transaction, and the other games' batches go in the next transaction
// (up to maxGroupTries times; then one at a time too).

// maxGroupTries is how many times a batch goes in another transaction again
// after other games' statements failed its transactions.
const maxGroupTries = 8

// groupBatch is one game's batch of appends in a group commit.
type groupBatch struct {
	ctx    context.Context
	batch  []*queuedAppend
	counts []int  // rows each append matched
	err    error  // the transaction's: nothing of it is stored
	failed bool   // err is a statement of this batch's
	xid    uint32 // the transaction's id, when an append of the batch matched
	done   chan struct{}
}

// group gathers the batches of games ready while transactions are in
// flight.
type group struct {
	mu       sync.Mutex
	ready    []*groupBatch
	inFlight int
	most     int
}

// submit hands gb to the next transaction; commit runs transactions of the
// batches ready, at most g.most at once.
func (g *group) submit(gb *groupBatch, commit func([]*groupBatch)) {
	g.mu.Lock()
	g.ready = append(g.ready, gb)
	if g.inFlight >= g.most {
		g.mu.Unlock()
		return // a transaction in flight takes it when it ends
	}
	g.inFlight++
	g.mu.Unlock()
	go func() {
		for {
			g.mu.Lock()
			take := g.ready
			g.ready = nil
			if len(take) == 0 {
				g.inFlight--
				g.mu.Unlock()
				return
			}
			g.mu.Unlock()
			commit(take)
		}
	}()
}

// commitGroup stores the batches of several games in one transaction and
// sets each append's count of rows matched, or each batch's error.
func (s *Store) commitGroup(gbs []*groupBatch) {
	defer func() {
		for _, gb := range gbs {
			close(gb.done)
		}
	}()
	if err := s.enter(); err != nil {
		for _, gb := range gbs {
			gb.err = err
		}
		return
	}
	defer s.leave()
	slices.SortFunc(gbs, func(a, b *groupBatch) int { return strings.Compare(a.batch[0].a.GameID, b.batch[0].a.GameID) })
	start := time.Now()
	var (
		b    pgx.Batch
		runs [][]int // by batch, where each of its runs begins (and then its length)
	)
	for _, gb := range gbs {
		starts := runStarts(gb.batch)
		runs = append(runs, starts)
		for r, lo := range starts[:len(starts)-1] {
			hi := starts[r+1]
			run := make([]domain.Append, 0, hi-lo)
			for _, q := range gb.batch[lo:hi] {
				run = append(run, q.a)
			}
			sql, args := s.appendArgs(run, r > 0)
			b.Queue(sql, args...)
		}
	}
	br := s.pool.SendBatch(gbs[0].ctx, &b)
	var (
		err error
		n   int
		xid pgtype.Uint32 // the transaction's: NULL from an append that matched no row
	)
	stored := 0
read:
	for k, gb := range gbs {
		starts := runs[k]
		for r, lo := range starts[:len(starts)-1] {
			if err = br.QueryRow().Scan(&n, &xid); err != nil {
				gb.failed = true
				break read
			}
			for i := lo; i < starts[r+1]; i++ {
				gb.counts[i] = n
			}
			if n > 0 {
				stored += starts[r+1] - lo
				gb.xid = xid.Uint32
			}
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		err = unavailable(fmt.Errorf("postgres: append: %w", err))
		for _, gb := range gbs {
			gb.err = err
		}
		return
	}
	if s.onCommit != nil && stored > 0 {
		s.onCommit(time.Since(start), stored)
	}
}

// runStarts splits a game's batch into the runs that one statement each
// stores (appendSQL): an append begins a new run unless it expects the
// version the one before it stores and was authenticated at the same
// revision of the game's credentials (the statement compares the game's
// revision once). It returns where each run begins, then len(batch).
func runStarts(batch []*queuedAppend) []int {
	starts := []int{0}
	for i := 1; i < len(batch); i++ {
		a, prev := batch[i].a, batch[i-1].a
		if a.ExpectVersion != prev.Move.Seq || !sameRevision(a.Credentials, prev.Credentials) {
			starts = append(starts, i)
		}
	}
	return append(starts, len(batch))
}

// sameRevision reports whether two appends' credentials revisions are the
// same (or both not given).
func sameRevision(a, b *int64) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
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
