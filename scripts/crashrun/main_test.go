package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/treasury-games/treasury/storage/postgres/pgtest"
)

// TestRun kills a server twice under a table's load and checks the file.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts a server three times")
	}
	var out bytes.Buffer
	c := config{kills: 2, clients: 4, minUp: 200 * time.Millisecond, maxUp: 400 * time.Millisecond, seed: 1, database: "sqlite", servers: 1}
	res, err := run(t.Context(), c, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !res.ok() || res.Kills != 2 || res.Acknowledged == 0 || res.Games == 0 {
		t.Errorf("want 2 kills, moves acknowledged and none lost; got %+v\n%s", res, out.String())
	}
}

// TestRunServers kills servers of three on one PostgreSQL, and PostgreSQL
// itself once, under two tables' load, and checks the database.
func TestRunServers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts PostgreSQL and servers")
	}
	if _, err := exec.LookPath("initdb"); err != nil {
		if m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb"); len(m) == 0 && os.Getenv("CI") != "true" {
			t.Skip(pgtest.Install)
		}
	}
	var out bytes.Buffer
	c := config{kills: 4, clients: 8, minUp: 300 * time.Millisecond, maxUp: 600 * time.Millisecond, seed: 1, database: "postgres", servers: 3, pgKills: 1}
	res, err := run(t.Context(), c, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !res.ok() || res.Kills != 4 || res.DatabaseKills != 1 || res.Acknowledged == 0 || res.Games == 0 {
		t.Errorf("want 4 kills, 1 of PostgreSQL, moves acknowledged and none lost; got %+v\n%s", res, out.String())
	}
}
