package api

import (
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
