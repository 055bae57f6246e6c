package postgres

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Notices of stored moves are sent after the move's commit, not inside its
// transaction: PostgreSQL takes one cluster-wide lock in the commit of every
// transaction that notifies (PreCommit_Notify) and holds it until that
// commit's WAL flush, so a NOTIFY inside each append put every commit of the
// cluster, of every server, one after another. Now the appends commit
// without it, and one goroutine per store sends the notices of the moves
// committed meanwhile together, in one statement: one notifying commit per
// batch. Its payloads are lines of "<game id> <seq>" of at most
// maxNoticePayload bytes (PostgreSQL's limit is 8000).
//
// A store sends at most one notifying statement per noticeInterval: the
// first notice after a quiet spell goes at once, and those of the moves
// committed within the interval after a send wait for its end and go
// together. Each notifying statement costs PostgreSQL more than itself:
// every listening backend of the database (one per server, the sender's
// own server's too; PostgreSQL 15 wakes them whatever the channel) is woken
// and reads the queue in a transaction of its own. Sent as soon as there
// was something to send, three routed servers sent 0.39 notifying
// statements per move, which woke listeners about 1.0 times per move: of
// the 2.25 transactions per move PostgreSQL ran for them, 1.4 were notices
// (issue 27). One statement per 20 ms still woke listeners 0.28 times a
// move (three routed servers, medians of 8 load runs on a shared machine:
// the fewer moves a server stores a second, the fewer notices share a
// statement); one per 50 ms, 0.12, and PostgreSQL's transactions per move
// went from 1.11 to 0.91.
//
// A notice may be lost (the server stops between a commit and its notice,
// or the statement fails): that costs the other servers' live clients
// latency, never a move, since their streams read the log at every
// heartbeat and on any gap. A server of an older build reads a payload of
// one line only: during a rolling upgrade its streams may hear of the moves
// of a batch at their next heartbeat.

const maxNoticePayload = 7000

// noticeInterval is the least time between two notifying statements of one
// store: the most a notice waits for others to share its statement, and so
// the most latency the batching adds to the streams of other servers.
const noticeInterval = 50 * time.Millisecond

// notifier batches the notices of committed moves.
type notifier struct {
	mu      sync.Mutex
	pending []string // "<game id> <seq>", in commit order
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	lose    func(gameID string, seq int64) bool // test hook: notices to drop
}

func newNotifier(lose func(string, int64) bool) *notifier {
	return &notifier{wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}), lose: lose}
}

// told queues the notice of a committed move.
func (n *notifier) told(gameID string, seq int64) {
	if n.lose != nil && n.lose(gameID, seq) {
		return
	}
	n.mu.Lock()
	n.pending = append(n.pending, gameID+" "+strconv.FormatInt(seq, 10))
	n.mu.Unlock()
	select {
	case n.wake <- struct{}{}:
	default:
	}
}

// take returns the queued notices as payloads and empties the queue.
func (n *notifier) take() []string {
	n.mu.Lock()
	lines := n.pending
	n.pending = nil
	n.mu.Unlock()
	return payloads(lines)
}

// payloads joins lines with "\n" into payloads of at most maxNoticePayload
// bytes (a longer line, which no game id makes, goes alone).
func payloads(lines []string) []string {
	var out []string
	var b strings.Builder
	for _, l := range lines {
		if b.Len() > 0 && b.Len()+1+len(l) > maxNoticePayload {
			out = append(out, b.String())
			b.Reset()
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}

// run sends the queued notices until stop, at most one statement per
// noticeInterval, then sends what is left at once (for at most a second)
// and closes done.
func (n *notifier) run(send func(ctx context.Context, payloads []string) error) {
	defer close(n.done)
	flush := func(d time.Duration) bool {
		p := n.take()
		if len(p) == 0 {
			return false
		}
		ctx, cancel := context.WithTimeout(context.Background(), d)
		_ = send(ctx, p) // lost: the streams catch up from the log
		cancel()
		return true
	}
	pause := time.NewTimer(0)
	<-pause.C
	var last time.Time
	for {
		select {
		case <-n.wake:
			if wait := noticeInterval - time.Since(last); wait > 0 {
				pause.Reset(wait)
				select {
				case <-pause.C:
				case <-n.stop:
					pause.Stop()
					flush(time.Second)
					return
				}
			}
			if start := time.Now(); flush(5 * time.Second) {
				last = start
			}
		case <-n.stop:
			flush(time.Second)
			return
		}
	}
}

// notifySQL sends every payload of $2 on channel $1 in one statement, so one
// transaction.
const notifySQL = `SELECT count(pg_notify($1, p)) FROM unnest($2::text[]) AS p`

func (s *Store) sendNotices(ctx context.Context, payloads []string) error {
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	s.senders.add(c.Conn().PgConn().PID())
	var n int
	return c.QueryRow(ctx, notifySQL, movesChannel, payloads).Scan(&n)
}

// senders are the process ids of the backends a store has sent notices
// from, while their connections are open. PostgreSQL tells every listener of
// a notice, its sender's too; a store's own notices tell its server nothing
// (the server hands its moves to its own clients when they are stored), and
// reading the log for them when they arrive first cost a read of the game
// and one of the log for about one move in four (issue 27, three servers).
// A backend's process id may be another's once its connection is closed:
// the pool forgets it then (BeforeClose).
type senders struct {
	mu   sync.Mutex
	pids map[uint32]struct{}
}

func (o *senders) add(pid uint32) {
	o.mu.Lock()
	o.pids[pid] = struct{}{}
	o.mu.Unlock()
}

func (o *senders) forget(pid uint32) {
	o.mu.Lock()
	delete(o.pids, pid)
	o.mu.Unlock()
}

// has reports whether pid is the backend of one of the store's connections
// that has sent notices.
func (o *senders) has(pid uint32) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	_, ok := o.pids[pid]
	return ok
}
