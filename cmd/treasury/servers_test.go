package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/storage/postgres/pgtest"
)

// TestServeTwoOnPostgres runs two treasury serve on one database: a move
// made on the first reaches an event stream on the second within seconds,
// long before the stream's first heartbeat (15 s) would read the log, so
// through the database's notices that serve listens to.
func TestServeTwoOnPostgres(t *testing.T) {
	url := pgtest.Database(t)
	a, stopA := started(t, []string{"serve", "--address", "127.0.0.1:0", "--database", url}, env())
	b, stopB := started(t, []string{"serve", "--address", "127.0.0.1:0", "--database", url}, env())
	defer stopA()
	defer stopB()

	res, err := http.Post(a+"/v1/games", "application/json", strings.NewReader(`{"ruleset":"silver-and-gold","mode":"digital","players":[{"name":"Ann"},{"name":"Ben"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		Game struct {
			ID    string `json:"id"`
			State struct {
				Players []struct {
					Dealt []string `json:"dealt"`
				} `json:"players"`
			} `json:"state"`
		} `json:"game"`
		Credentials struct {
			Seats []string `json:"seats"`
		} `json:"credentials"`
	}
	err = json.NewDecoder(res.Body).Decode(&created)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %v", res.StatusCode, err)
	}
	id := created.Game.ID

	stream, err := http.Get(b + "/v1/games/" + id + "/events")
	if err != nil || stream.StatusCode != http.StatusOK {
		t.Fatalf("stream on B: %v %v", stream, err)
	}
	defer stream.Body.Close()
	ids := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(stream.Body)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
				ids <- v
			}
		}
		close(ids)
	}()
	if got := <-ids; got != "0" {
		t.Fatalf("the stream starts at version %s", got)
	}

	dealt := created.Game.State.Players[0].Dealt
	req, _ := http.NewRequest(http.MethodPost, a+"/v1/games/"+id+"/moves",
		strings.NewReader(fmt.Sprintf(`{"type":"keep","seat":0,"cards":[%q,%q]}`, dealt[0], dealt[1])))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+created.Credentials.Seats[0])
	res, err = http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("move on A: %v %v", res, err)
	}
	res.Body.Close()
	select {
	case got := <-ids:
		if got != "1" {
			t.Errorf("the stream on B told version %s, want 1", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stream on B heard nothing of the move on A within 5 s")
	}
}

// TestServeWaitsForPostgres: a server started while its PostgreSQL is down
// serves anyway, /healthz 200 and /readyz 503, says so in its log, and once
// the database answers becomes ready by itself and plays games.
func TestServeWaitsForPostgres(t *testing.T) {
	c, err := pgtest.Start(false)
	if err != nil {
		t.Skip("no PostgreSQL cluster of its own: " + err.Error())
	}
	t.Cleanup(func() { _ = c.Stop() })
	socketURL, err := c.Database(t.Context(), "later")
	if err != nil {
		t.Fatal(err)
	}
	su, err := url.Parse(socketURL)
	if err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(su.Query().Get("host"), ".s.PGSQL.5432")
	// The database, over TCP at an address where nothing listens yet.
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := free.Addr().String()
	free.Close()
	dbURL := (&url.URL{Scheme: "postgres", User: su.User, Host: addr, Path: su.Path, RawQuery: "sslmode=disable"}).String()

	base, _, log := startedLog(t, []string{"serve", "--address", "127.0.0.1:0", "--database", dbURL}, env())
	get := func(path string) (int, string) {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		defer res.Body.Close()
		return res.StatusCode, res.Header.Get("Content-Type")
	}
	if status, _ := get("/healthz"); status != http.StatusOK {
		t.Errorf("/healthz without a database: %d, want 200 (the process is alive)", status)
	}
	if status, ctype := get("/readyz"); status != http.StatusServiceUnavailable || ctype != "application/problem+json" {
		t.Errorf("/readyz without a database: %d %s, want 503 problem+json", status, ctype)
	}
	res, err := http.Post(base+"/v1/games", "application/json", strings.NewReader(`{"ruleset":"silver-and-gold","mode":"physical","players":[{"name":"Ann"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Errorf("a new game without a database: %d, Retry-After %q; want 503 with Retry-After", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if !strings.Contains(log.String(), "the database does not answer; serving anyway") {
		t.Errorf("the log does not say the database does not answer:\n%s", log)
	}

	// The database comes up at that address.
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen where the database is expected: %v", err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			cn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer cn.Close()
				pg, err := net.Dial("unix", socket)
				if err != nil {
					return
				}
				defer pg.Close()
				go func() { _, _ = io.Copy(pg, cn); pg.Close() }()
				_, _ = io.Copy(cn, pg)
			}()
		}
	}()
	deadline := time.Now().Add(60 * time.Second)
	for {
		status, _ := get("/readyz")
		if status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz still %d a minute after the database came up\nlog:\n%s", status, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
	createGame(t, base)
	if !strings.Contains(log.String(), "the database answers: serving games") {
		t.Errorf("the log does not say the database answers:\n%s", log)
	}
}
