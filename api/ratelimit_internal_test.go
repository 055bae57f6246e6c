package api

import (
	"strconv"
	"testing"
	"time"
)

// TestLimitersForget shows that the buckets of clients that went quiet are
// forgotten, so that memory stays bounded by the clients of the last minutes,
// and that a flood of new clients never grows the map past maxLimiters.
func TestLimitersForget(t *testing.T) {
	t0 := time.Date(2025, 5, 2, 19, 30, 0, 0, time.UTC)
	ls := newLimiters(RateLimit{Rate: 1, Burst: 2})
	if ls.idle != time.Minute {
		t.Fatalf("a bucket refilled in 2 s is kept for %v, want a minute", ls.idle)
	}
	for i := range 100 {
		ls.take("client-"+strconv.Itoa(i), t0)
	}
	if n := ls.size(); n != 100 {
		t.Fatalf("%d buckets for 100 clients", n)
	}
	// One client goes on; the others are idle for a minute.
	ls.take("client-0", t0.Add(30*time.Second))
	ls.take("client-0", t0.Add(time.Minute))
	if n := ls.size(); n != 1 {
		t.Errorf("%d buckets after a minute with one active client, want 1", n)
	}
	// Forgetting a bucket changes nothing for its client: it was full.
	for i := range 2 {
		if _, _, ok := ls.take("client-7", t0.Add(time.Minute+time.Duration(i))); !ok {
			t.Errorf("request %d of a returning client's burst refused", i+1)
		}
	}
	if wait, _, ok := ls.take("client-7", t0.Add(time.Minute+2)); ok || wait <= 0 || wait > time.Second {
		t.Errorf("beyond the burst: ok %v, wait %v", ok, wait)
	}

	t.Run("a flood of new clients", func(t *testing.T) {
		ls := newLimiters(RateLimit{Rate: 1, Burst: 1})
		for i := range maxLimiters + 1000 {
			ls.take("flood-"+strconv.Itoa(i), t0.Add(time.Duration(i)*time.Microsecond))
		}
		if n := ls.size(); n > maxLimiters {
			t.Errorf("%d buckets, bound %d", n, maxLimiters)
		}
	})
}
