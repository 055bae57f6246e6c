package api_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// nestedBodies are the audit's bodies: cheap to send, and before the shape
// check each cost the schema validator up to seconds of CPU to refuse.
var nestedBodies = []struct {
	name, path string
	body       string
	code       string // the problem's code; body_too_complex when empty
}{
	{"objects 9,000 deep as a move", "/v1/games/no-such-game/moves", strings.Repeat(`{"a":`, 9000) + "1" + strings.Repeat("}", 9000), ""},
	{"boxes nested 9,000 deep", "/v1/games/no-such-game/moves",
		`{"type":"cross","seat":0,"card":"grey-01","boxes":` + strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + "}", ""},
	{"boxes 40 deep", "/v1/games/no-such-game/moves",
		`{"type":"cross","seat":0,"card":"grey-01","boxes":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "}", ""},
	{"boxes 31 deep (passes the shape check)", "/v1/games/no-such-game/moves",
		`{"type":"cross","seat":0,"card":"grey-01","boxes":` + strings.Repeat("[", 31) + strings.Repeat("]", 31) + "}", "validation_failed"},
	{"a record nested to the record body limit", "/v1/records/verify", strings.Repeat("[", api.RecordBodyLimit), ""},
	{"a move with 30,000 boxes", "/v1/games/no-such-game/moves",
		`{"type":"cross","seat":0,"card":"grey-01","boxes":[` + strings.Repeat("[0,0],", 29999) + "[0,0]]}", ""},
}

// TestComplexBodies: bodies nested deeper, or wider, than any request are
// refused with 400 body_too_complex before they are parsed, whoever sends
// them, while real requests (the other tests) pass.
func TestComplexBodies(t *testing.T) {
	s := startOps(t, func(o *api.Options) { o.BodyLimit = 1 << 20 })
	for _, c := range nestedBodies {
		t.Run(c.name, func(t *testing.T) {
			code := c.code
			if code == "" {
				code = "body_too_complex"
			}
			r := s.Do(t, http.MethodPost, c.path, c.body)
			p := wantProblem(t, r, http.StatusBadRequest, code)
			if !strings.Contains(p.Detail, "request body") {
				t.Errorf("detail %q does not say what is wrong with the body", p.Detail)
			}
		})
	}
	// A whole game's record, pretty-printed, still passes (verify_test plays
	// one); so does a move nested as deep as any.
	tb := newTable(t, s.server, "digital", 1, "shape")
	l := tb.legal(t, 0)
	keep := silvergold.Move{Type: silvergold.MoveKeep, Seat: silvergold.SeatPtr(0), Cards: l.Keep[:2]}
	wantStatus(t, s.Do(t, http.MethodPost, tb.path("/moves"), keep, cred(tb.seats[0])), http.StatusOK)
}

// BenchmarkRejectNestedBody is the whole server's cost of refusing each of the
// audit's bodies (the worst took a second of CPU before the shape check).
func BenchmarkRejectNestedBody(b *testing.B) {
	store, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "treasury.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	h, err := api.NewHandler(service.New(store, silvergold.NewRules()), api.Options{
		Logger: slog.New(slog.DiscardHandler), DefaultRuleset: silvergold.RulesetName, BodyLimit: 1 << 20,
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range nestedBodies {
		b.Run(strings.ReplaceAll(c.name, " ", "_"), func(b *testing.B) {
			body := []byte(c.body)
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, c.path, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusBadRequest {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}

// TestEventStreamCaps: streams beyond the cap of an address or a credential
// are refused with 429, beyond the total with 503, both with Retry-After;
// health and metrics answer meanwhile, and a closed stream frees its place.
func TestEventStreamCaps(t *testing.T) {
	s := startOps(t, func(o *api.Options) { o.StreamsPerAddress, o.StreamsPerCredential, o.MaxStreams = 3, 2, 10 })
	p := create(t, s.client, 2, "caps")
	events := "/v1/games/" + p.id + "/events"
	first := openStream(t, s.server, events, "Authorization", "Bearer "+p.seats[0])
	openStream(t, s.server, events+"?access_token="+p.seats[0])

	r := s.Do(t, http.MethodGet, events, nil, cred(p.seats[0]))
	wantProblem(t, r, http.StatusTooManyRequests, "rate_limited")
	if r.Header.Get("Retry-After") == "" {
		t.Error("a refused stream without Retry-After")
	}
	openStream(t, s.server, events) // the address's third
	p4 := wantProblem(t, s.Do(t, http.MethodGet, events, nil), http.StatusTooManyRequests, "rate_limited")
	if !strings.Contains(p4.Detail, "address") {
		t.Errorf("the refusal does not say which cap: %q", p4.Detail)
	}
	wantStatus(t, s.Do(t, http.MethodGet, "/healthz", nil), http.StatusOK)
	wantStatus(t, s.Do(t, http.MethodGet, "/metrics", nil), http.StatusOK)
	if n := s.metric(t, "treasury_event_streams"); n != 3 {
		t.Errorf("treasury_event_streams %v, want 3", n)
	}
	if n := s.metric(t, "treasury_event_streams_refused_total", "limit", "address"); n != 1 {
		t.Errorf("refused by the address cap: %v, want 1", n)
	}

	first.resp.Body.Close()
	deadline := time.Now().Add(5 * time.Second)
	for s.metric(t, "treasury_event_streams") > 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	openStream(t, s.server, events, "Authorization", "Bearer "+p.seats[0])

	total := startOps(t, func(o *api.Options) { o.StreamsPerAddress, o.MaxStreams = -1, 2 })
	q := create(t, total.client, 1, "caps")
	events = "/v1/games/" + q.id + "/events"
	openStream(t, total.server, events)
	openStream(t, total.server, events)
	r = total.Do(t, http.MethodGet, events, nil)
	wantProblem(t, r, http.StatusServiceUnavailable, "unavailable")
	if r.Header.Get("Retry-After") != "10" {
		t.Errorf("Retry-After %q, want 10", r.Header.Get("Retry-After"))
	}
}

// TestCreateQuota: an address creates games up to its quota, then gets 429
// with Retry-After, while its other requests still pass.
func TestCreateQuota(t *testing.T) {
	s := startOps(t, func(o *api.Options) { o.CreateLimit = api.RateLimit{Rate: 1.0 / 60, Burst: 3} })
	var tb *table
	for range 3 {
		tb = newTable(t, s.server, "digital", 1, "")
	}
	r := s.Do(t, http.MethodPost, "/v1/games", map[string]any{"ruleset": "silver-and-gold", "mode": "digital", "players": players(1)})
	p := wantProblem(t, r, http.StatusTooManyRequests, "rate_limited")
	if ra := r.Header.Get("Retry-After"); ra == "" || ra == "0" || !strings.Contains(p.Detail, "games") {
		t.Errorf("Retry-After %q, detail %q: want the wait and a reason about creating games", ra, p.Detail)
	}
	wantStatus(t, s.Do(t, http.MethodGet, tb.path(""), nil), http.StatusOK)
	if n := s.metric(t, "treasury_rate_limited_total", "limit", "create"); n != 1 {
		t.Errorf("treasury_rate_limited_total{limit=create} %v, want 1", n)
	}
}

// TestCreateQuotaRetry: a creation whose answer was lost is answered when
// sent again with its Idempotency-Key, even once the address's quota of
// creations is spent; a new creation with a key is still refused, and a key
// sent before with another body is still told so.
func TestCreateQuotaRetry(t *testing.T) {
	s := startOps(t, func(o *api.Options) { o.CreateLimit = api.RateLimit{Rate: 1.0 / 60, Burst: 2} })
	games := func() int { return storedGames(t, s.Store.CountGames) }
	body := `{"ruleset":"silver-and-gold","mode":"physical","players":[{"name":"Ann"},{"name":"Ben"}]}`
	key := createKey("000000000101")
	first := wantCreated(t, s.Do(t, http.MethodPost, "/v1/games", body, key))
	wantCreated(t, s.Do(t, http.MethodPost, "/v1/games", body, createKey("000000000102")))
	before := games()

	// The quota is spent: the retry of the first creation is answered...
	wantReplay(t, s.Do(t, http.MethodPost, "/v1/games", body, key), first)
	// ...a new creation, with a key or without, is refused...
	r := s.Do(t, http.MethodPost, "/v1/games", body, createKey("000000000103"))
	wantProblem(t, r, http.StatusTooManyRequests, "rate_limited")
	if r.Header.Get("Retry-After") == "" {
		t.Error("a refused creation with a key has no Retry-After")
	}
	wantProblem(t, s.Do(t, http.MethodPost, "/v1/games", body), http.StatusTooManyRequests, "rate_limited")
	// ...and the first key with another body is refused as reused.
	other := `{"ruleset":"silver-and-gold","mode":"physical","players":[{"name":"Ann"},{"name":"Cid"}]}`
	wantProblem(t, s.Do(t, http.MethodPost, "/v1/games", other, key), http.StatusUnprocessableEntity, "idempotency_key_reused")
	if n := games(); n != before {
		t.Errorf("%d games stored after the quota was spent, %d before", n, before)
	}
	if n := s.metric(t, "treasury_rate_limited_total", "limit", "create"); n != 2 {
		t.Errorf("treasury_rate_limited_total{limit=create} %v, want 2 (the two new creations)", n)
	}
}
