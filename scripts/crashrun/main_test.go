package main

import (
	"bytes"
	"testing"
	"time"
)

// TestRun kills a server twice under a table's load and checks the file.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts a server three times")
	}
	var out bytes.Buffer
	c := config{kills: 2, clients: 4, minUp: 200 * time.Millisecond, maxUp: 400 * time.Millisecond, seed: 1}
	res, err := run(t.Context(), c, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !res.ok() || res.Kills != 2 || res.Acknowledged == 0 || res.Games == 0 {
		t.Errorf("want 2 kills, moves acknowledged and none lost; got %+v\n%s", res, out.String())
	}
}
