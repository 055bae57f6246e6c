package main

import (
	"net/http"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestRaiseOpenFileLimit: the soft limit on open files is the hard one
// afterwards.
func TestRaiseOpenFileLimit(t *testing.T) {
	n, err := raiseOpenFileLimit()
	if err != nil {
		t.Fatal(err)
	}
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		t.Fatal(err)
	}
	if l.Cur != l.Max || n != l.Cur {
		t.Errorf("open-file limit %d of %d (returned %d): not raised to the hard limit", l.Cur, l.Max, n)
	}
}

// TestStreamCapSettings: the caps on event streams come from the
// environment; a stream beyond them is refused while /healthz answers.
func TestStreamCapSettings(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	base, _ := started(t, []string{"serve", "--address", "127.0.0.1:0", "--database", db},
		env("TREASURY_STREAMS_PER_ADDRESS", "1", "TREASURY_MAX_STREAMS", "0"))
	id := createGame(t, base)
	first, err := http.Get(base + "/v1/games/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer first.Body.Close()
	if first.StatusCode != http.StatusOK {
		t.Fatalf("first stream: %d", first.StatusCode)
	}
	second, err := http.Get(base + "/v1/games/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	second.Body.Close()
	if second.StatusCode != http.StatusTooManyRequests || second.Header.Get("Retry-After") == "" || second.Header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("second stream from the address: %d %q, Retry-After %q; want 429 problem+json with Retry-After",
			second.StatusCode, second.Header.Get("Content-Type"), second.Header.Get("Retry-After"))
	}
	h, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	h.Body.Close()
	if h.StatusCode != http.StatusOK {
		t.Errorf("/healthz %d", h.StatusCode)
	}
}

// TestIdleGamesSweep: with --idle-games-after set, a game with no move for
// that long disappears by itself, and its record could be read until then.
func TestIdleGamesSweep(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	base, _ := started(t, []string{"serve", "--address", "127.0.0.1:0", "--database", db, "--idle-games-after", "1s"}, env())
	id := createGame(t, base)
	status := func(path string) int {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := status("/v1/games/" + id + "/record"); got != http.StatusOK {
		t.Fatalf("the record of a fresh game: %d", got)
	}
	deadline := time.Now().Add(10 * time.Second)
	for status("/v1/games/"+id) != http.StatusNotFound {
		if time.Now().After(deadline) {
			t.Fatal("the idle game was not deleted within 10 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
}
