package main

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// serve starts the real API, with the default rate limits of `treasury
// serve`, on a fresh database.
func serve(t *testing.T) string {
	t.Helper()
	return serveThrough(t, nil)
}

// serveThrough is serve with the handler wrapped by wrap (nil: as it is).
func serveThrough(t *testing.T, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "treasury.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	h, err := api.NewHandler(service.New(store, rulesets.All()...), api.Options{
		Logger:       slog.New(slog.DiscardHandler),
		AddressLimit: api.DefaultAddressLimit, CredentialLimit: api.DefaultCredentialLimit,
	})
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

// TestBotPlaysWholeGames: the bot plays whole games from the legal moves
// alone, with fewer than two requests per move, and at the default rate
// limits a 4-seat game is never throttled.
func TestBotPlaysWholeGames(t *testing.T) {
	for _, c := range []config{
		{ruleset: "silver-and-gold", mode: "digital", players: 4, seed: "bot-1", rand: 1},
		{ruleset: "silver-and-gold", mode: "physical", players: 2, rand: 2},
		{ruleset: "lucky-treasure-hunter", mode: "digital", players: 4, seed: "bot-3", rand: 3},
		{ruleset: "colorful-treasure", mode: "digital", players: 3, seed: "bot-4", rand: 4},
		{ruleset: "lucky-treasure-hunter", mode: "physical", players: 3, rand: 5},
		{ruleset: "colorful-treasure", mode: "physical", players: 2, rand: 6},
	} {
		t.Run(c.ruleset+"/"+c.mode, func(t *testing.T) {
			c.server = serve(t)
			s, err := run(t.Context(), c)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s %d seats: %d moves, %d requests (%.3f per move), %d refused, %d throttled, %d streams, %d bytes per move answer, %v",
				c.mode, c.players, s.Moves, s.Requests, s.PerMove(), s.Refused, s.Throttled, s.Streams, s.MoveBytes/max(s.Moves, 1), s.Took)
			if s.PerMove() >= 2 {
				t.Errorf("%.2f requests per move, want fewer than 2", s.PerMove())
			}
			if s.Throttled > 0 {
				t.Errorf("throttled %d times at the default limits", s.Throttled)
			}
			if s.Moves < 20 {
				t.Errorf("only %d moves in a whole game", s.Moves)
			}
		})
	}
}

// TestBotNeverWaitsForEver: a seat whose stream tells it nothing (here a
// server whose streams carry no legal_moves event at all, as if every push
// were missed) reads the game and its legal moves after -idle, and the bot
// still plays the game to its end.
func TestBotNeverWaitsForEver(t *testing.T) {
	noLegal := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/events") {
				q := r.URL.Query()
				q.Del("legal_moves")
				r.URL.RawQuery = q.Encode()
			}
			next.ServeHTTP(w, r)
		})
	}
	c := config{ruleset: "lucky-treasure-hunter", mode: "physical", players: 2, rand: 7, idle: 50 * time.Millisecond}
	c.server = serveThrough(t, noLegal)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	s, err := run(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d moves, %d requests, %d times a stream was quiet, %v", s.Moves, s.Requests, s.Idled, s.Took)
	if s.Idled == 0 {
		t.Error("no seat ever read its legal moves after a quiet stream")
	}
}
