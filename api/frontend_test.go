package api_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

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
	r := s.do(t, http.MethodGet, ref.Href, nil)
	wantStatus(t, r, http.StatusOK)
	tag := `"` + ref.Hash + `"`
	if r.Header.Get("ETag") != tag || r.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Errorf("ETag %q, Cache-Control %q", r.Header.Get("ETag"), r.Header.Get("Cache-Control"))
	}
	if c := decode[silvergold.CatalogView](t, r.Body); c.Hash != ref.Hash || len(c.Cards) != 47 {
		t.Errorf("catalog %s with %d cards", c.Hash, len(c.Cards))
	}
	r = s.do(t, http.MethodGet, ref.Href, nil, header("If-None-Match", tag))
	wantStatus(t, r, http.StatusNotModified)
	if len(r.Body) != 0 || r.Header.Get("ETag") != tag {
		t.Errorf("304 with %d bytes, ETag %q", len(r.Body), r.Header.Get("ETag"))
	}
	// By name alone: the same validator, kept for a short while.
	r = s.do(t, http.MethodGet, "/v1/catalogs/standard", nil)
	wantStatus(t, r, http.StatusOK)
	if r.Header.Get("ETag") != tag || r.Header.Get("Cache-Control") != "public, max-age=300" {
		t.Errorf("by name: ETag %q, Cache-Control %q", r.Header.Get("ETag"), r.Header.Get("Cache-Control"))
	}
	// Another hash is another catalog, which this server does not have.
	wantProblem(t, s.do(t, http.MethodGet, "/v1/catalogs/standard?hash="+strings.Repeat("0", 64), nil), http.StatusNotFound, "not_found")
	// GET /v1/rulesets points at the same URL.
	r = s.do(t, http.MethodGet, "/v1/rulesets", nil)
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
		r := s.do(t, http.MethodGet, tb.path("/legal-moves"), nil, cred(tb.seats[seat]))
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
		wantProblem(t, s.do(t, http.MethodPost, tb.path("/moves"), m, cred(tb.seats[seat]), header("If-Match", r.Header.Get("ETag"))),
			http.StatusPreconditionFailed, "precondition_failed")
	}
	// The host of a physical game is told the reports it owes.
	ph := newTable(t, s, "physical", 1, "")
	tb.s.do(t, http.MethodPost, ph.path("/moves"), silvergold.Move{Type: silvergold.MoveKeep, Seat: silvergold.SeatPtr(0), Cards: []string{"grey-01", "grey-02"}}, cred(ph.seats[0]))
	r := s.do(t, http.MethodGet, ph.path("/legal-moves"), nil, cred(ph.host))
	wantStatus(t, r, http.StatusOK)
	l := decode[silvergold.Legal](t, r.Body)
	if l.Seat != -1 || l.Action != silvergold.MoveDisplay || l.Count != 4 || len(l.DisplayFrom) != 45 {
		t.Errorf("the host's legal moves: seat %d, %s ×%d from %d cards", l.Seat, l.Action, l.Count, len(l.DisplayFrom))
	}
}
