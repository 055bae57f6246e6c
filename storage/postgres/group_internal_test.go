package postgres

import (
	"testing"
	"time"
)

// recorder is a commit function that hands each call's batches to calls,
// and holds the first call until release is closed.
type recorder struct {
	calls   chan []*groupBatch
	release chan struct{}
	first   bool
}

func newRecorder() *recorder {
	return &recorder{calls: make(chan []*groupBatch, 16), release: make(chan struct{}), first: true}
}

func (r *recorder) commit(gbs []*groupBatch) {
	first := r.first // only the first call's goroutine sees true: the group runs one until another may start
	r.first = false
	r.calls <- gbs
	if first {
		<-r.release
	}
}

func (r *recorder) next(t *testing.T, what string) []*groupBatch {
	t.Helper()
	select {
	case gbs := <-r.calls:
		return gbs
	case <-time.After(10 * time.Second):
		t.Fatalf("no transaction began for %s in 10s", what)
		return nil
	}
}

// TestGroupWaitsForCommitOnTime: batches ready while a commit is in flight
// for less than its patience go together in one transaction after it, not
// each in a transaction of its own beside it.
func TestGroupWaitsForCommitOnTime(t *testing.T) {
	g := &group{most: 2, patience: time.Hour, fixed: true}
	r := newRecorder()
	a, b, c := &groupBatch{}, &groupBatch{}, &groupBatch{}
	g.submit(a, r.commit)
	if got := r.next(t, "the first batch"); len(got) != 1 || got[0] != a {
		t.Fatalf("first transaction holds %d batches, want the first alone", len(got))
	}
	g.submit(b, r.commit)
	g.submit(c, r.commit)
	close(r.release)
	if got := r.next(t, "the batches ready meanwhile"); len(got) != 2 || got[0] != b || got[1] != c {
		t.Fatalf("next transaction holds %d batches, want the two ready meanwhile together", len(got))
	}
}

// TestGroupSecondWhenOverdue: a batch ready while the transaction in flight
// has run longer than its patience goes in a second transaction beside it,
// not behind it.
func TestGroupSecondWhenOverdue(t *testing.T) {
	g := &group{most: 2, patience: 20 * time.Millisecond, fixed: true}
	r := newRecorder()
	defer close(r.release)
	a, b := &groupBatch{}, &groupBatch{}
	g.submit(a, r.commit)
	r.next(t, "the first batch")
	g.submit(b, r.commit)
	if got := r.next(t, "a batch behind a stalled commit"); len(got) != 1 || got[0] != b {
		t.Fatalf("second transaction holds %d batches, want the one ready", len(got))
	}
}
