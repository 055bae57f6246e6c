package api_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// TestCatalogCacheable: the catalog a game's view points at is served with
// its hash as a strong ETag, may be kept for good at that URL, and is
// revalidated for nothing.
func TestCatalogCacheable(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "digital", 1, "catalog-cache")
	g, _ := tb.get(t, "")
	ref := g.State.Catalog
	if !strings.HasPrefix(ref.Href, "/v1/catalogs/standard?") || !strings.Contains(ref.Href, "hash="+ref.Hash) {
		t.Fatalf("the view's catalog href is %q", ref.Href)
	}
	r := s.Do(t, http.MethodGet, ref.Href, nil)
	wantStatus(t, r, http.StatusOK)
	tag := `"` + ref.Hash + `"`
	if r.Header.Get("ETag") != tag || r.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Errorf("ETag %q, Cache-Control %q", r.Header.Get("ETag"), r.Header.Get("Cache-Control"))
	}
	if c := decode[silvergold.CatalogView](t, r.Body); c.Hash != ref.Hash || len(c.Cards) != 47 {
		t.Errorf("catalog %s with %d cards", c.Hash, len(c.Cards))
	}
	r = s.Do(t, http.MethodGet, ref.Href, nil, header("If-None-Match", tag))
	wantStatus(t, r, http.StatusNotModified)
	if len(r.Body) != 0 || r.Header.Get("ETag") != tag {
		t.Errorf("304 with %d bytes, ETag %q", len(r.Body), r.Header.Get("ETag"))
	}
	// By name alone: the same validator, kept for a short while.
	r = s.Do(t, http.MethodGet, "/v1/catalogs/standard?ruleset=silver-and-gold", nil)
	wantStatus(t, r, http.StatusOK)
	if r.Header.Get("ETag") != tag || r.Header.Get("Cache-Control") != "public, max-age=300" {
		t.Errorf("by name: ETag %q, Cache-Control %q", r.Header.Get("ETag"), r.Header.Get("Cache-Control"))
	}
	// Another hash is another catalog, which this server does not have.
	wantProblem(t, s.Do(t, http.MethodGet, "/v1/catalogs/standard?ruleset=silver-and-gold&hash="+strings.Repeat("0", 64), nil), http.StatusNotFound, "not_found")
	// GET /v1/rulesets points at the same URL.
	r = s.Do(t, http.MethodGet, "/v1/rulesets", nil)
	var list struct {
		Rulesets []struct {
			Name     string `json:"name"`
			Catalogs []struct {
				Href string `json:"href"`
			} `json:"catalogs"`
		} `json:"rulesets"`
	}
	if err := json.Unmarshal(r.Body, &list); err != nil {
		t.Fatal(err)
	}
	for _, rs := range list.Rulesets {
		if rs.Name == silvergold.RulesetName && rs.Catalogs[0].Href != ref.Href {
			t.Errorf("rulesets href %q, view href %q", rs.Catalogs[0].Href, ref.Href)
		}
	}
}

// TestLegalMovesVersion: the legal moves carry the game's version, in the
// body and as the ETag, and a move chosen from them is accepted with it as
// If-Match (and refused once the game moved on).
func TestLegalMovesVersion(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "digital", 2, "legal-version")
	for seat := range 2 {
		r := s.Do(t, http.MethodGet, tb.path("/legal-moves"), nil, cred(tb.seats[seat]))
		wantStatus(t, r, http.StatusOK)
		var l struct {
			Version int64    `json:"version"`
			Keep    []string `json:"keep_from"`
		}
		if err := json.Unmarshal(r.Body, &l); err != nil {
			t.Fatal(err)
		}
		if want := int64(seat); l.Version != want || r.Header.Get("ETag") != strconv.Quote(strconv.FormatInt(want, 10)) {
			t.Errorf("seat %d: version %d, ETag %s; want %d", seat, l.Version, r.Header.Get("ETag"), want)
		}
		m := silvergold.Move{Type: silvergold.MoveKeep, Seat: silvergold.SeatPtr(seat), Cards: l.Keep[:2]}
		tb.play(t, tb.seats[seat], m, header("If-Match", r.Header.Get("ETag")))
		wantProblem(t, s.Do(t, http.MethodPost, tb.path("/moves"), m, cred(tb.seats[seat]), header("If-Match", r.Header.Get("ETag"))),
			http.StatusPreconditionFailed, "precondition_failed")
	}
	// The host of a physical game is told the reports it owes.
	ph := newTable(t, s, "physical", 1, "")
	tb.s.Do(t, http.MethodPost, ph.path("/moves"), silvergold.Move{Type: silvergold.MoveKeep, Seat: silvergold.SeatPtr(0), Cards: []string{"grey-01", "grey-02"}}, cred(ph.seats[0]))
	r := s.Do(t, http.MethodGet, ph.path("/legal-moves"), nil, cred(ph.host))
	wantStatus(t, r, http.StatusOK)
	l := decode[silvergold.Legal](t, r.Body)
	if l.Seat != -1 || l.Action != silvergold.MoveDisplay || l.Count != 4 || len(l.DeckCards) != 45 {
		t.Errorf("the host's legal moves: seat %d, %s ×%d from %d cards", l.Seat, l.Action, l.Count, len(l.DeckCards))
	}
}

// TestPreferMinimal: Prefer: return=minimal answers a move with its seq and
// version only, and says so; a retry with the same Idempotency-Key gets the
// minimal answer too.
func TestPreferMinimal(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "digital", 2, "minimal")
	l := tb.legal(t, 0)
	m := silvergold.Move{Type: silvergold.MoveKeep, Seat: silvergold.SeatPtr(0), Cards: l.Keep[:2]}
	for i := range 2 {
		r := s.Do(t, http.MethodPost, tb.path("/moves"), m, cred(tb.seats[0]), header("Prefer", "return=minimal"), header("Idempotency-Key", "k1"))
		wantStatus(t, r, http.StatusOK)
		if got := strings.TrimSpace(string(r.Body)); got != `{"seq":1,"version":1}` {
			t.Errorf("answer %d: %s", i+1, got)
		}
		if r.Header.Get("Preference-Applied") != "return=minimal" || r.Header.Get("ETag") != `"1"` ||
			r.Header.Get("Idempotency-Replayed") != strconv.FormatBool(i == 1) {
			t.Errorf("answer %d headers: %v", i+1, r.Header)
		}
	}
	// Without the preference (or with another), the whole game.
	l = tb.legal(t, 1)
	m = silvergold.Move{Type: silvergold.MoveKeep, Seat: silvergold.SeatPtr(1), Cards: l.Keep[:2]}
	r := s.Do(t, http.MethodPost, tb.path("/moves"), m, cred(tb.seats[1]), header("Prefer", "respond-async, wait=5"))
	wantStatus(t, r, http.StatusOK)
	if r.Header.Get("Preference-Applied") != "" || !strings.Contains(string(r.Body), `"game":`) {
		t.Errorf("without return=minimal: %v %.80s", r.Header, r.Body)
	}
	full := len(r.Body)
	c := tb.legal(t, 0)
	cross := crossFor(0, c, tb.mustGet(t).State)
	r = s.Do(t, http.MethodPost, tb.path("/moves"), cross, cred(tb.seats[0]), header("Prefer", "return=minimal"))
	wantStatus(t, r, http.StatusOK)
	t.Logf("a move's answer: %d bytes whole, %d bytes with return=minimal", full, len(r.Body))
}

func (tb *table) mustGet(t *testing.T) gameJSON {
	g, _ := tb.get(t, tb.host)
	return g
}

// TestRateLimitSubSecond: a wait below a second is told exactly in the
// problem, Retry-After rounds it up to a whole second, and every answer
// carries the RateLimit headers.
func TestRateLimitSubSecond(t *testing.T) {
	s := startOps(t, func(o *api.Options) { o.CredentialLimit = api.RateLimit{Rate: 8, Burst: 2} })
	tb := newTable(t, s.server, "digital", 1, "sub-second")
	r := s.Do(t, http.MethodGet, tb.path(""), nil, cred(tb.seats[0]))
	wantStatus(t, r, http.StatusOK)
	if got := r.Header.Get("RateLimit-Policy"); got != `"address";q=480;w=4, "credential";q=2;w=1` && got != `"credential";q=2;w=1` {
		t.Errorf("RateLimit-Policy %q", got)
	}
	if got := r.Header.Get("RateLimit"); !strings.Contains(got, `"credential";r=1;t=1`) {
		t.Errorf("RateLimit %q", got)
	}
	s.Do(t, http.MethodGet, tb.path(""), nil, cred(tb.seats[0]))
	r = s.Do(t, http.MethodGet, tb.path(""), nil, cred(tb.seats[0]))
	p := wantProblem(t, r, http.StatusTooManyRequests, "rate_limited")
	var body struct {
		RetryAfterMs int64 `json:"retry_after_ms"`
	}
	_ = json.Unmarshal(r.Body, &body)
	if r.Header.Get("Retry-After") != "1" || body.RetryAfterMs < 1 || body.RetryAfterMs > 125 || !strings.Contains(p.Detail, "ms") {
		t.Errorf("Retry-After %q, retry_after_ms %d, detail %q; want 1 s and at most 125 ms", r.Header.Get("Retry-After"), body.RetryAfterMs, p.Detail)
	}
	if !strings.Contains(r.Header.Get("RateLimit"), `"credential";r=0`) {
		t.Errorf("RateLimit on the 429: %q", r.Header.Get("RateLimit"))
	}
}

// TestLegalMovesStreamNeedsCredential: without a credential there is no one
// whose legal moves the stream could tell.
func TestLegalMovesStreamNeedsCredential(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "digital", 1, "stream-legal")
	wantProblem(t, s.Do(t, http.MethodGet, tb.path("/events?legal_moves=true"), nil), http.StatusBadRequest, "invalid")
}
