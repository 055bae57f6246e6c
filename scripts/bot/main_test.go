package main

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/scripts/internal/testserver"
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
	return testserver.URL(t, api.Options{AddressLimit: api.DefaultAddressLimit, CredentialLimit: api.DefaultCredentialLimit}, wrap)
}

// TestBotPlaysWholeGames: the bot plays whole games of every ruleset the
// server plays, in each of its modes, from the legal moves alone, with fewer
// than two requests per move, and at the default rate limits a game is never
// throttled.
func TestBotPlaysWholeGames(t *testing.T) {
	var games []config
	for _, r := range rulesets.All() {
		info := r.Info()
		for _, mode := range info.Modes {
			c := config{ruleset: r.Name(), mode: mode, rand: uint64(len(games) + 1)}
			if mode == "digital" {
				c.players, c.seed = min(4, info.MaxPlayers), "bot-"+r.Name()
			} else {
				c.players = max(2, info.MinPlayers)
			}
			games = append(games, c)
		}
	}
	if len(games) < 6 {
		t.Fatalf("%d games to play, want every ruleset in both modes", len(games))
	}
	for _, c := range games {
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
