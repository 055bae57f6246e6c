// Package testserver starts the real API for the scripts' tests: every
// ruleset of domain/rulesets, on a fresh SQLite database.
package testserver

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// URL starts the API with o (its logs discarded when o has no Logger) on a
// fresh database in t's temporary directory, its handler wrapped by wrap
// (nil: as it is), and returns its base URL. It stops when t ends.
func URL(t testing.TB, o api.Options, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "treasury.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	h, err := api.NewHandler(service.New(store, rulesets.All()...), o)
	if err != nil {
		t.Fatal(err)
	}
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}
