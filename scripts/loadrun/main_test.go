package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/treasury-games/treasury/scripts/deploy/nginx"
	"github.com/treasury-games/treasury/storage/postgres/pgtest"
)

// TestRun builds both servers and measures one complete game against each:
// the smallest run that goes through every step of a real one. The seats
// follow the event stream: they read a listing only after a refusal or a
// quiet stream, far fewer times than they move.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts two servers")
	}
	var out bytes.Buffer
	report := filepath.Join(t.TempDir(), "report.json")
	c := config{clients: 4, games: 1, runs: 1, idempotency: true, duration: time.Second, database: "sqlite", servers: 1, follow: true, output: report}
	if err := run(t.Context(), c, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	tr := rep.Rounds[0].Treasury
	if tr.Accepted == 0 || int64(tr.Reads["legal-moves"]) > tr.Accepted/2 || tr.Reads["stream"] != 4 {
		t.Errorf("%d moves took %d reads of a listing and %d streams, want fewer than half as many reads and 4 streams:\n%s",
			tr.Accepted, tr.Reads["legal-moves"], tr.Reads["stream"], out.String())
	}
	reportHas(t, &out, "treasury", "floor", "ratio treasury/floor", "0 others")
	if bytes.Contains(out.Bytes(), []byte("games created 0")) {
		t.Errorf("no game was played:\n%s", out.String())
	}
}

// TestRunRulesets measures one complete game of every other ruleset the
// server plays (TestRun plays the default, Silver & Gold): the seats choose
// from the server's legal moves, whatever the game.
func TestRunRulesets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts two servers per game")
	}
	for _, ruleset := range rulesetNames() {
		if ruleset == "silver-and-gold" {
			continue
		}
		t.Run(ruleset, func(t *testing.T) {
			var out bytes.Buffer
			c := config{clients: 4, games: 1, runs: 1, idempotency: true, duration: time.Second, ruleset: ruleset, follow: true}
			if err := run(t.Context(), c, &out); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			reportHas(t, &out, "treasury", "floor", "0 others", "completed 1")
		})
	}
}

// TestRunServers plays two games on three servers over one PostgreSQL.
func TestRunServers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts PostgreSQL and four servers")
	}
	if _, err := exec.LookPath("initdb"); err != nil {
		if m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb"); len(m) == 0 && os.Getenv("CI") != "true" {
			t.Skip(pgtest.Install)
		}
	}
	var out bytes.Buffer
	profile := filepath.Join(t.TempDir(), "cpu.prof")
	c := config{clients: 8, games: 2, runs: 1, idempotency: true, duration: time.Second, database: "postgres", servers: 3, follow: true, pprof: profile}
	if err := run(t.Context(), c, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	reportHas(t, &out, "3 server(s) on postgres", "0 others", "completed 2")
	for i := 1; i <= 3; i++ { // a profile of every server
		if fi, err := os.Stat(fmt.Sprintf("%s.%d", profile, i)); err != nil || fi.Size() == 0 {
			t.Errorf("no profile of server %d: %v", i, err)
		}
	}
}

// TestRunNginx plays a game on one server behind the shipped nginx
// configuration and reports nginx's CPU per move.
func TestRunNginx(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts two servers and nginx")
	}
	if _, err := nginx.Find(); err != nil {
		t.Skip(err)
	}
	var out bytes.Buffer
	c := config{clients: 4, games: 1, runs: 1, idempotency: true, duration: time.Second, follow: true, nginx: true}
	if err := run(t.Context(), c, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	reportHas(t, &out, "1 server(s) on sqlite", "routing: every client talks to nginx", "0 others", "completed 1")
	if !regexp.MustCompile(`CPU per move: server \d+ us, nginx \d+ us`).Match(out.Bytes()) {
		t.Errorf("the report gives no CPU of nginx per move:\n%s", out.String())
	}
}

// reportHas fails t for each of wants that the load run's report out lacks.
func reportHas(t *testing.T, out *bytes.Buffer, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !bytes.Contains(out.Bytes(), []byte(want)) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
}
