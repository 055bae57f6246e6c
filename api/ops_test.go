package api_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// TestHealthAndReadiness: /healthz answers while the process serves, /readyz
// only while the database is usable.
func TestHealthAndReadiness(t *testing.T) {
	s := startOps(t, nil)
	wantStatus(t, s.Do(t, http.MethodGet, "/healthz", nil), http.StatusOK)
	r := s.Do(t, http.MethodGet, "/readyz", nil)
	wantStatus(t, r, http.StatusOK)
	if string(r.Body) != "{\"status\":\"ok\"}\n" {
		t.Errorf("readyz: %s", r.Body)
	}

	if err := s.Store.Close(); err != nil {
		t.Fatal(err)
	}
	r = s.Do(t, http.MethodGet, "/readyz", nil)
	wantProblem(t, r, http.StatusServiceUnavailable, "unavailable")
	if r.Header.Get("Retry-After") == "" {
		t.Error("a 503 without Retry-After")
	}
	wantStatus(t, s.Do(t, http.MethodGet, "/healthz", nil), http.StatusOK)
}

// TestMetrics scrapes /metrics after a few requests and finds them counted
// by route pattern, the moves by result and code, the games by phase and the
// store's commits.
func TestMetrics(t *testing.T) {
	s := startOps(t, nil)
	tb := newTable(t, s.server, "digital", 1, "metrics")
	keep := func(cards ...string) silvergold.Move {
		return silvergold.Move{Type: silvergold.MoveKeep, Seat: silvergold.SeatPtr(0), Cards: cards}
	}
	l := tb.legal(t, 0)
	wantStatus(t, s.Do(t, http.MethodPost, tb.path("/moves"), keep(l.Keep[0], "grey-99"), cred(tb.seats[0])), http.StatusBadRequest)
	wantStatus(t, s.Do(t, http.MethodPost, tb.path("/moves"), keep(l.Keep[0], l.Keep[0]), cred(tb.seats[0])), http.StatusUnprocessableEntity)
	for range 2 { // the second is a replay
		wantStatus(t, s.Do(t, http.MethodPost, tb.path("/moves"), keep(l.Keep[:2]...), cred(tb.seats[0]), header("Idempotency-Key", "k")), http.StatusOK)
	}
	newTable(t, s.server, "physical", 2, "")
	wantStatus(t, s.Do(t, http.MethodGet, "/no/such/"+tb.id, nil), http.StatusNotFound)

	r := s.Do(t, http.MethodGet, "/metrics", nil)
	wantStatus(t, r, http.StatusOK)
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") {
		t.Errorf("Content-Type %s", r.Header.Get("Content-Type"))
	}
	body := string(r.Body)
	for _, want := range []string{
		`treasury_http_requests_total{method="POST",route="/v1/games/:id/moves",status="200"} 2`,
		`treasury_http_requests_total{method="POST",route="/v1/games/:id/moves",status="422"} 1`,
		`treasury_http_requests_total{method="POST",route="/v1/games",status="201"} 2`,
		`treasury_http_requests_total{method="GET",route="unmatched",status="404"} 1`,
		`treasury_http_request_duration_seconds_count{method="GET",route="/v1/games/:id/legal-moves",status="200"} 1`,
		`treasury_moves_total{code="",result="accepted",ruleset="silver-and-gold"} 1`,
		`treasury_moves_total{code="",result="replayed",ruleset="silver-and-gold"} 1`,
		`treasury_moves_total{code="illegal_move",result="rejected",ruleset="silver-and-gold"} 1`,
		`treasury_moves_total{code="invalid",result="rejected",ruleset="silver-and-gold"} 1`,
		`treasury_games{phase="crossing",ruleset="silver-and-gold"} 1`,
		`treasury_games{phase="setup",ruleset="silver-and-gold"} 1`,
		`treasury_store_commit_writes_count`,
		`treasury_event_streams 0`,
		`go_goroutines`,
		`process_open_fds`,
	} {
		if !strings.Contains(body, want+"\n") && !strings.Contains(body, want+" ") {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if strings.Contains(body, tb.id) {
		t.Error("a raw path (with a game id) is a label value")
	}
	// Seat 0's first request marks its seat taken (the join page no longer
	// offers it): one commit, once per seat.
	if n := s.metric(t, "treasury_store_commit_duration_seconds"); n != 4 {
		t.Errorf("%v commits observed; two games, a seat taken and a move were stored, one at a time", n)
	}
}

// TestRequestLog: one log line per request with its route and request id,
// which the answer carries in X-Request-ID and every problem in request_id.
func TestRequestLog(t *testing.T) {
	s := startOps(t, nil)
	tb := newTable(t, s.server, "digital", 1, "log")

	r := s.Do(t, http.MethodGet, tb.path(""), nil, header("X-Request-ID", "client-chosen.id:42"))
	if got := r.Header.Get("X-Request-Id"); got != "client-chosen.id:42" {
		t.Errorf("a sane client request id came back as %q", got)
	}
	r = s.Do(t, http.MethodPost, tb.path("/moves"), noteMove, cred("nobody"), header("X-Request-ID", "not sane <script>"))
	p := wantProblem(t, r, http.StatusUnauthorized, "unauthorized")
	generated := r.Header.Get("X-Request-Id")
	if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(generated) || p.RequestID != generated {
		t.Errorf("an insane client id was replaced by %q; the problem says %q", generated, p.RequestID)
	}

	var lines []map[string]any
	for _, l := range s.logs.lines(t) {
		if l["msg"] == "request" {
			lines = append(lines, l)
		}
	}
	if len(lines) != 3 {
		t.Fatalf("%d request lines for 3 requests: %v", len(lines), lines)
	}
	last := lines[2]
	want := map[string]any{"method": "POST", "route": "/v1/games/:id/moves", "path": tb.path("/moves"), "status": float64(401), "request_id": generated, "level": "INFO"}
	for k, v := range want {
		if last[k] != v {
			t.Errorf("log field %s = %v, want %v (%v)", k, last[k], v, last)
		}
	}
	if _, ok := last["duration"].(float64); !ok {
		t.Errorf("no duration: %v", last)
	}
	if lines[1]["request_id"] != "client-chosen.id:42" {
		t.Errorf("the log names request %v", lines[1]["request_id"])
	}
}

// TestCORS: an allowed origin's preflight and requests get the CORS headers;
// another origin's do not; a server without origins sends none.
func TestCORS(t *testing.T) {
	allowed, other := "https://table.example", "https://evil.example"
	s := startOps(t, func(o *api.Options) { o.CORSOrigins = []string{allowed} })
	tb := newTable(t, s.server, "digital", 1, "cors")

	preflight := func(s *opsServer, origin string) *http.Response {
		req, _ := http.NewRequest(http.MethodOptions, s.HTTP.URL+tb.path("/moves"), nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "authorization, content-type, idempotency-key, if-match")
		res, err := s.HTTP.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	res := preflight(s, allowed)
	h := res.Header
	if res.StatusCode != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != allowed {
		t.Fatalf("preflight from %s: %d %v", allowed, res.StatusCode, h)
	}
	for _, want := range []string{"Authorization", "Content-Type", "Idempotency-Key", "If-Match", "Last-Event-ID"} {
		if !strings.Contains(h.Get("Access-Control-Allow-Headers"), want) {
			t.Errorf("preflight does not allow %s: %s", want, h.Get("Access-Control-Allow-Headers"))
		}
	}
	if !strings.Contains(h.Get("Access-Control-Allow-Methods"), "POST") || h.Get("Access-Control-Max-Age") == "" || h.Get("Access-Control-Allow-Credentials") != "" {
		t.Errorf("preflight headers %v", h)
	}
	if res := preflight(s, other); res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preflight from %s allowed: %v", other, res.Header)
	}

	r := s.Do(t, http.MethodGet, tb.path(""), nil, header("Origin", allowed))
	wantStatus(t, r, http.StatusOK)
	exposed := r.Header.Get("Access-Control-Expose-Headers")
	for _, want := range []string{"ETag", "Location", "Idempotency-Replayed", "X-Request-Id", "Retry-After"} {
		if !strings.Contains(exposed, want) {
			t.Errorf("%s is not exposed: %q", want, exposed)
		}
	}
	if r.Header.Get("Access-Control-Allow-Origin") != allowed {
		t.Errorf("a request from %s: %v", allowed, r.Header)
	}
	r = s.Do(t, http.MethodGet, tb.path(""), nil, header("Origin", other))
	if r.Status != http.StatusOK || r.Header.Get("Access-Control-Allow-Origin") != "" || r.Header.Get("Access-Control-Expose-Headers") != "" {
		t.Errorf("a request from %s: %d %v", other, r.Status, r.Header)
	}

	none := startOps(t, nil)
	if res := preflight(none, allowed); res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("a server without origins answered a preflight with %v", res.Header)
	}
}

// TestRateLimit: a burst beyond an address's or a credential's bucket is
// refused with 429 and Retry-After, and nobody else is held up by it.
func TestRateLimit(t *testing.T) {
	// A rate of 1 per 100 s: nothing refills during the test.
	slow := api.RateLimit{Rate: 0.01, Burst: 3}
	call := func(h http.Handler, path, addr, credential string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.RemoteAddr = addr
		if credential != "" {
			req.Header.Set("Authorization", "Bearer "+credential)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	refused := func(t *testing.T, rec *httptest.ResponseRecorder) {
		t.Helper()
		r := resp{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
		wantProblem(t, r, http.StatusTooManyRequests, "rate_limited")
		if secs, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || secs < 90 || secs > 100 {
			t.Errorf("Retry-After %q, want the 100 s a token takes", rec.Header().Get("Retry-After"))
		}
	}

	t.Run("per address", func(t *testing.T) {
		s := startOps(t, func(o *api.Options) { o.AddressLimit = slow })
		for i := range 3 {
			if rec := call(s.handler, "/v1/catalogs/standard?ruleset=silver-and-gold", "192.0.2.1:4000", ""); rec.Code != http.StatusOK {
				t.Fatalf("request %d of the burst: %d", i+1, rec.Code)
			}
		}
		refused(t, call(s.handler, "/v1/catalogs/standard?ruleset=silver-and-gold", "192.0.2.1:4001", ""))
		refused(t, call(s.handler, "/docs", "192.0.2.1:4001", ""))
		if rec := call(s.handler, "/v1/catalogs/standard?ruleset=silver-and-gold", "192.0.2.2:4000", ""); rec.Code != http.StatusOK {
			t.Errorf("another address: %d", rec.Code)
		}
		// One IPv6 host: its /64.
		for i := range 3 {
			call(s.handler, "/healthz", "[2001:db8::1]:1", "")
			call(s.handler, "/v1/catalogs/standard?ruleset=silver-and-gold", "[2001:db8::"+strconv.Itoa(i+1)+"]:1", "")
		}
		refused(t, call(s.handler, "/v1/catalogs/standard?ruleset=silver-and-gold", "[2001:db8::ff]:1", ""))
		// Probes and scrapers are never refused.
		for _, p := range []string{"/healthz", "/readyz", "/metrics"} {
			if rec := call(s.handler, p, "192.0.2.1:4000", ""); rec.Code != http.StatusOK {
				t.Errorf("%s from a limited address: %d", p, rec.Code)
			}
		}
		if n := s.metric(t, "treasury_rate_limited_total", "limit", "address"); n != 3 {
			t.Errorf("%v refusals counted", n)
		}
	})

	t.Run("per credential", func(t *testing.T) {
		s := startOps(t, func(o *api.Options) { o.CredentialLimit = slow })
		tb := newTable(t, s.server, "digital", 2, "limits")
		for i := range 3 {
			if rec := call(s.handler, tb.path(""), "192.0.2.1:1", tb.seats[0]); rec.Code != http.StatusOK {
				t.Fatalf("request %d of the burst: %d", i+1, rec.Code)
			}
		}
		refused(t, call(s.handler, tb.path(""), "192.0.2.9:1", tb.seats[0]))
		// The same credential as an event stream's access_token.
		refused(t, call(s.handler, tb.path("/events?access_token="+tb.seats[0]), "192.0.2.9:1", ""))
		if rec := call(s.handler, tb.path(""), "192.0.2.1:1", tb.seats[1]); rec.Code != http.StatusOK {
			t.Errorf("another credential: %d", rec.Code)
		}
		if rec := call(s.handler, tb.path(""), "192.0.2.1:1", ""); rec.Code != http.StatusOK {
			t.Errorf("no credential, no credential limit: %d", rec.Code)
		}
	})

	t.Run("a browser can read the 429", func(t *testing.T) {
		s := startOps(t, func(o *api.Options) {
			o.AddressLimit = api.RateLimit{Rate: 0.01, Burst: 1}
			o.CORSOrigins = []string{"*"}
		})
		call(s.handler, "/v1/catalogs/standard?ruleset=silver-and-gold", "192.0.2.1:1", "")
		req := httptest.NewRequest(http.MethodGet, "/v1/catalogs/standard?ruleset=silver-and-gold", nil)
		req.RemoteAddr = "192.0.2.1:1"
		req.Header.Set("Origin", "https://table.example")
		rec := httptest.NewRecorder()
		s.handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Access-Control-Allow-Origin") != "*" ||
			!strings.Contains(rec.Header().Get("Access-Control-Expose-Headers"), "Retry-After") {
			t.Errorf("429 to a browser: %d %v", rec.Code, rec.Header())
		}
	})
}

// TestDocsServed: the page and its script come from the binary.
func TestDocsServed(t *testing.T) {
	s := startOps(t, nil)
	res, err := s.HTTP.Client().Get(s.HTTP.URL + "/docs")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(string(page), `src="docs/redoc.standalone.js"`) || !strings.Contains(string(page), `spec-url="openapi.yaml"`) {
		t.Fatalf("/docs: %d %s\n%s", res.StatusCode, res.Header.Get("Content-Type"), page)
	}
	res, err = s.HTTP.Client().Get(s.HTTP.URL + "/docs/redoc.standalone.js")
	if err != nil {
		t.Fatal(err)
	}
	js, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(res.Header.Get("Content-Type"), "javascript") || len(js) < 500_000 {
		t.Fatalf("the script: %d %s, %d bytes", res.StatusCode, res.Header.Get("Content-Type"), len(js))
	}
}

// TestMetricsCountBounded: /metrics is open to anyone and exempt from the
// request rates, so scrapes sent at once and one after the other share one
// count of the games by phase, which still says what it counted.
func TestMetricsCountBounded(t *testing.T) {
	var counts atomic.Int64
	s := startOps(t, func(o *api.Options) {
		count := o.CountGames
		o.CountGames = func(ctx context.Context) ([]domain.GameCount, error) {
			counts.Add(1)
			return count(ctx)
		}
	})
	newTable(t, s.server, "physical", 2, "")
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			r := s.Do(t, http.MethodGet, "/metrics", nil)
			wantStatus(t, r, http.StatusOK)
			if !strings.Contains(string(r.Body), `treasury_games{phase="setup",ruleset="silver-and-gold"} 1`+"\n") {
				t.Errorf("a scrape lacks the game: %s", grepMetrics(string(r.Body), "treasury_games"))
			}
		})
	}
	wg.Wait()
	if n := counts.Load(); n != 1 {
		t.Errorf("20 scrapes counted the games %d times, want once", n)
	}
}

// grepMetrics returns the lines of a scrape that hold name.
func grepMetrics(body, name string) string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		if strings.Contains(l, name) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
