package play

import (
	"context"
	"encoding/json"
	"math/rand/v2"
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

func listing(t *testing.T, s string) Listing {
	t.Helper()
	var l Listing
	if err := json.Unmarshal([]byte(s), &l); err != nil {
		t.Fatal(err)
	}
	return l
}

// TestPickOwesOnlyWhenAwaited: a listing of a seat the game does not await,
// or one of corrections only, gives no move.
func TestPickOwesOnlyWhenAwaited(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for name, s := range map[string]string{
		"another seat": `{"seat":1,"awaiting":[{"actor":"seat","seat":0,"action":"roll","count":1}],"moves":[{"move":{"type":"roll","seat":1},"label":"Roll"}]}`,
		"the host":     `{"seat":0,"awaiting":[{"actor":"host","action":"roll","count":1}],"moves":[{"move":{"type":"roll","seat":0},"label":"Roll"}]}`,
		"corrections":  `{"seat":0,"awaiting":[{"actor":"seat","seat":0,"action":"roll","count":1}],"moves":[{"move":{"type":"take_back","seat":0},"label":"Take back","correction":true}]}`,
	} {
		if m, _, ok, err := listing(t, s).Pick(r); ok || err != nil {
			t.Errorf("%s: picked %s (%v), want nothing", name, m, err)
		}
	}
	host := listing(t, `{"seat":-1,"awaiting":[{"actor":"host","action":"roll","count":1}],"moves":[{"move":{"type":"roll"},"label":"Roll"}]}`)
	if m, typ, ok, err := host.Pick(r); !ok || err != nil || typ != "roll" || string(m) != `{"type":"roll"}` {
		t.Errorf("the host's listing: %s %q %v %v", m, typ, ok, err)
	}
}

// TestPickCompletesByTheRule: a picked entry is never a correction, and an
// entry with choose is completed by the rule of domain.LegalMove: between
// min and max parts (raised by what the parts owe), none excluded by the
// entry's holds or by a part picked before.
func TestPickCompletesByTheRule(t *testing.T) {
	l := listing(t, `{"seat":0,"awaiting":[{"actor":"seat","seat":0,"action":"cross","count":1}],
		"moves":[
			{"move":{"type":"take_back","seat":0},"label":"Take back","correction":true},
			{"move":{"type":"cross","seat":0},"label":"Cross","choose":{"pool":"boxes","min":1,"max":1},"holds":["a"]}],
		"pools":{"boxes":[
			{"add":{"extra":1},"label":"1","excludes":["a"]},
			{"add":{"extra":2},"label":"2","owes":1,"excludes":["b"]},
			{"add":{"extra":3},"label":"3","excludes":["b"]},
			{"add":{"extra":4},"label":"4"}]}}`)
	r := rand.New(rand.NewPCG(3, 4))
	seen := map[string]bool{}
	for range 500 {
		m, typ, ok, err := l.Pick(r)
		if err != nil || !ok || typ != "cross" {
			t.Fatalf("%s %q %v %v", m, typ, ok, err)
		}
		var got struct {
			Extra []int `json:"extra"`
		}
		if err := json.Unmarshal(m, &got); err != nil {
			t.Fatal(err)
		}
		seen[string(m)] = true
		owed, has := 0, map[int]bool{}
		for _, x := range got.Extra {
			has[x] = true
			if x == 2 {
				owed++
			}
		}
		switch {
		case has[1]:
			t.Errorf("%s: part 1 is excluded by the entry's holds", m)
		case has[2] && has[3]:
			t.Errorf("%s: parts 2 and 3 exclude each other", m)
		case len(got.Extra) < 1 || len(got.Extra) > 1+owed:
			t.Errorf("%s: %d parts, want 1 to %d", m, len(got.Extra), 1+owed)
		}
	}
	for _, want := range []string{`{"extra":[4],"seat":0,"type":"cross"}`, `{"extra":[2,4],"seat":0,"type":"cross"}`} {
		if !seen[want] {
			t.Errorf("never picked %s; picked %v", want, seen)
		}
	}
}

// serve starts the real API without rate limits, its handler wrapped by
// wrap (nil: as it is), and returns a client of it.
func serve(t *testing.T, wrap func(http.Handler) http.Handler) *client.ClientWithResponses {
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
	if testing.Short() {
		t.Skip("plays a whole game of every ruleset")
	}
	for _, rs := range rulesets.All() {
		if rs.Info().MaxPlayers < Seats || rs.Info().MinPlayers > Seats {
			continue
		}
		t.Run(rs.Name(), func(t *testing.T) {
			cl := serve(t, nil)
			rec := NewRecorder()
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			var (
				mu   sync.Mutex
				acks []Ack
			)
			o := Options{Client: cl, Ruleset: rs.Name(), Idempotency: true, Poll: 50 * time.Millisecond,
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
}
