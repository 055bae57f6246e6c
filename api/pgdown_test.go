package api_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/api/apitest"
	all "github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/storage/postgres"
	"github.com/treasury-games/treasury/storage/postgres/pgtest"
)

// TestPostgresDown: while the PostgreSQL server is down, creating a game
// and reading one are answered 503 unavailable with Retry-After (retry
// later, unchanged), not 500 internal.
func TestPostgresDown(t *testing.T) {
	c, url := pgtest.Own(t, "down")
	pg, err := postgres.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	h, err := api.NewHandler(service.New(pg, all.All()...), api.Options{Logger: apitest.Logger(t, slog.LevelError), DefaultRuleset: silvergold.RulesetName})
	if err != nil {
		t.Fatal(err)
	}
	s := &server{T: t, HTTP: httptest.NewServer(h)}
	t.Cleanup(func() { s.Stop(); pg.Close() })
	create := map[string]any{"ruleset": silvergold.RulesetName, "mode": "physical", "players": []map[string]string{{"name": "Ann"}}}
	r := s.Do(t, http.MethodPost, "/v1/games", create)
	wantStatus(t, r, http.StatusCreated)
	id := decode[struct{ Game struct{ ID string } }](t, r.Body).Game.ID

	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, r := range []resp{s.Do(t, http.MethodPost, "/v1/games", create), s.Do(t, http.MethodGet, "/v1/games/"+id, nil)} {
		wantProblem(t, r, http.StatusServiceUnavailable, "unavailable")
		if r.Header.Get("Retry-After") == "" {
			t.Errorf("%s: a 503 without Retry-After", r.Body)
		}
	}
}
