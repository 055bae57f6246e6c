package api

import (
	"sync"
	"testing"
	"time"
)

// TestSharedDeadline: the context a step reads the store in leaves it at
// least the time asked for and at most deadlineSlack more, and steps that
// follow one another share it; asked for another time, it fits that one.
func TestSharedDeadline(t *testing.T) {
	var s sharedDeadline
	check := func(d time.Duration) {
		t.Helper()
		start := time.Now()
		ctx := s.within(d)
		at, ok := ctx.Deadline()
		if !ok || at.Before(start.Add(d)) || at.After(time.Now().Add(d+deadlineSlack)) {
			t.Errorf("asked for %v: deadline %v after the call began (ok %v), want %v to %v", d, at.Sub(start), ok, d, d+deadlineSlack)
		}
		if ctx.Err() != nil {
			t.Errorf("asked for %v: the context has ended: %v", d, ctx.Err())
		}
	}
	check(time.Minute)
	if a, b := s.within(time.Minute), s.within(time.Minute); a != b {
		t.Error("two steps in a row have contexts of their own")
	}
	check(time.Hour)
	check(time.Minute)
}

// TestSharedDeadlineConcurrent: steps of many streams at once each get a
// context that leaves them the time asked for (go test -race checks the
// sharing).
func TestSharedDeadlineConcurrent(t *testing.T) {
	var (
		s  sharedDeadline
		wg sync.WaitGroup
	)
	for i := range 8 {
		d := time.Minute + time.Duration(i%2)*time.Hour
		wg.Go(func() {
			for range 200 {
				start := time.Now()
				if at, ok := s.within(d).Deadline(); !ok || at.Before(start.Add(d)) {
					t.Errorf("asked for %v: deadline %v after the call began", d, at.Sub(start))
					return
				}
			}
		})
	}
	wg.Wait()
}
