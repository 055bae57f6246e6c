package main

import (
	"bytes"
	"testing"
	"time"
)

// TestRun runs every phase tiny against a real server: the smallest run
// that goes through each step of a real one.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts a server")
	}
	var out bytes.Buffer
	c := config{bodies: 1, depth: 2000, streams: 5, creates: 5, changes: 3, idle: 40, baseline: 300 * time.Millisecond}
	if err := run(t.Context(), c, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{"player alone", "nested objects", "nested boxes array", "stream flood: 5 of 5 streams accepted",
		"creation flood: 5 games created", "choice changes:", "idle flood: 40 connections from 127.0.0.1", "with them held, another address"} {
		if !bytes.Contains(out.Bytes(), []byte(want)) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
}
