package play

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/scripts/internal/testserver"
)

// serve starts the real API without rate limits, its handler wrapped by
// wrap (nil: as it is), and returns a client of it.
func serve(t testing.TB, wrap func(http.Handler) http.Handler) *client.ClientWithResponses {
	t.Helper()
	cl, err := client.NewClientWithResponses(testserver.URL(t, api.Options{}, wrap))
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// TestPlayWaitsOutThrottling: an answer 429 is waited out and the request
// sent again; the game still ends, with no error besides the waits.
func TestPlayWaitsOutThrottling(t *testing.T) {
	var n atomic.Int64
	every5th := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1)%5 == 0 {
				w.Header().Set("Content-Type", "application/problem+json")
				w.WriteHeader(http.StatusTooManyRequests)
				_, _ = w.Write([]byte(`{"code":"rate_limited","retry_after_ms":2}`))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	rec := NewRecorder()
	o := Options{Client: serve(t, every5th), Ruleset: "lucky-treasure-hunter", Idempotency: true, Poll: 50 * time.Millisecond}
	if _, err := Play(t.Context(), o, rec, 3); err != nil {
		t.Fatal(err)
	}
	s := rec.Summary(time.Second)
	if s.Games != 1 || s.Errors["429 (waited, sent again)"] == 0 || len(s.Errors) != 1 {
		t.Errorf("games %d, errors %v; want one game, and 429s waited out", s.Games, s.Errors)
	}
}

// TestPlayEveryRuleset: a table of four plays a whole digital game of every
// ruleset the server plays, from the listings alone.
func TestPlayEveryRuleset(t *testing.T) {
	everyRuleset(t, func(t *testing.T, ruleset string) {
		cl := serve(t, nil)
		rec := NewRecorder()
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		var (
			mu   sync.Mutex
			acks []Ack
		)
		o := Options{Client: cl, Ruleset: ruleset, Idempotency: true, Poll: 50 * time.Millisecond,
			Ack: func(a Ack) { mu.Lock(); acks = append(acks, a); mu.Unlock() }}
		if _, err := Play(ctx, o, rec, 7); err != nil {
			t.Fatal(err)
		}
		s := rec.Summary(time.Second)
		if s.Games != 1 || s.Accepted < 10 || len(s.Errors) > 0 {
			t.Errorf("games %d, accepted %d, errors %v", s.Games, s.Accepted, s.Errors)
		}
		for _, a := range acks {
			if a.Type == "" {
				t.Errorf("a move acknowledged without its type: %+v", a)
			}
		}
	})
}

// everyRuleset runs f as a subtest for every ruleset that seats a table of
// Seats, each of which plays a whole game (skipped with -short).
func everyRuleset(t *testing.T, f func(t *testing.T, ruleset string)) {
	if testing.Short() {
		t.Skip("plays a whole game of every ruleset")
	}
	for _, rs := range rulesets.All() {
		if rs.Info().MaxPlayers < Seats || rs.Info().MinPlayers > Seats {
			continue
		}
		t.Run(rs.Name(), func(t *testing.T) { f(t, rs.Name()) })
	}
}

// TestPlayFollowingEveryRuleset: a table of four following the event stream
// with its legal moves (Options.Stream) plays a whole digital game of every
// ruleset, each move from the last listing its seat was told.
func TestPlayFollowingEveryRuleset(t *testing.T) {
	everyRuleset(t, func(t *testing.T, ruleset string) {
		rec := NewRecorder()
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		o := Options{Client: serve(t, nil), Ruleset: ruleset, Idempotency: true, Stream: true}
		if _, err := Play(ctx, o, rec, 5); err != nil {
			t.Fatal(err)
		}
		s := rec.Summary(time.Second)
		if s.Games != 1 || s.Accepted < 10 || len(s.Errors) > 0 {
			t.Errorf("games %d, accepted %d, errors %v", s.Games, s.Accepted, s.Errors)
		}
	})
}
