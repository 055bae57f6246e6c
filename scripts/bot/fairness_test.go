package main

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/api/client"
)

// TestIndependentVerifierAgreesWithTheServer: whole digital games of every
// ruleset are played on a real server; the independent verifier
// (scripts/fairness/fairness.mjs, another language, written from
// docs/fairness.md) finds every random outcome of each record where the
// revealed seed puts it, and finds a record altered in one outcome false.
func TestIndependentVerifierAgreesWithTheServer(t *testing.T) {
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no node: CI must run the independent verifier")
		}
		t.Skip("node is not installed: the independent verifier is not run")
	}
	verify := func(t *testing.T, record, events []byte) (passed, failed int, out string) {
		t.Helper()
		f, e := filepath.Join(t.TempDir(), "record.json"), filepath.Join(t.TempDir(), "events.txt")
		require.NoError(t, os.WriteFile(f, record, 0o600))
		require.NoError(t, os.WriteFile(e, events, 0o600))
		b, err := exec.Command(nodeBin, "../fairness/fairness.mjs", f, e).CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("node: %v", err)
		}
		m := regexp.MustCompile(`(?m)^(\d+) passed, (\d+) failed$`).FindStringSubmatch(string(b))
		require.NotNil(t, m, "the verifier's summary line:\n%s", b)
		passed, _ = strconv.Atoi(m[1])
		failed, _ = strconv.Atoi(m[2])
		assert.Equal(t, failed > 0, err != nil, "exit status agrees with the summary:\n%s", b)
		return passed, failed, string(b)
	}
	for _, c := range []struct {
		config
		least  int                               // checks the record must give at least
		tamper func(moves []map[string]any) bool // alters one random outcome
	}{
		{config{ruleset: "silver-and-gold", mode: "digital", players: 4, seed: "fair-sg-1", rand: 11}, 40, nil},
		{config{ruleset: "silver-and-gold", mode: "digital", players: 2, seed: "fair-sg-2", rand: 12}, 30, nil},
		{config{ruleset: "lucky-treasure-hunter", mode: "digital", players: 5, seed: "fair-lth-1", rand: 13}, 30, func(moves []map[string]any) bool {
			for _, m := range moves {
				if faces, ok := m["faces"].([]any); ok && len(faces) > 0 {
					if faces[0] == "pirate" {
						faces[0] = "blank"
					} else {
						faces[0] = "pirate"
					}
					return true
				}
			}
			return false
		}},
		{config{ruleset: "lucky-treasure-hunter", mode: "digital", players: 2, seed: "fair-lth-2", rand: 14}, 20, nil},
		{config{ruleset: "colorful-treasure", mode: "digital", players: 3, seed: "fair-ct-1", rand: 15}, 50, nil},
		{config{ruleset: "colorful-treasure", mode: "digital", players: 2, seed: "fair-ct-2", rand: 16}, 50, nil},
	} {
		t.Run(c.ruleset+"/"+strconv.Itoa(c.players), func(t *testing.T) {
			c.server = serve(t)
			s, err := run(t.Context(), c.config)
			require.NoError(t, err)
			api, err := client.NewClientWithResponses(c.server)
			require.NoError(t, err)
			rec, err := api.GetGameRecordWithResponse(t.Context(), s.Game)
			require.NoError(t, err)
			require.Equal(t, 200, rec.StatusCode(), "%s", rec.Body)

			// The ended game's whole event stream shows the rest.
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, c.server+"/v1/games/"+s.Game+"/events", nil)
			require.NoError(t, err)
			req.Header.Set("Accept", "text/event-stream")
			req.Header.Set("Last-Event-ID", "0")
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			events, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.NoError(t, err)
			require.Equal(t, 200, resp.StatusCode, "%s", events)

			passed, failed, out := verify(t, rec.Body, events)
			assert.Zero(t, failed, out)
			assert.GreaterOrEqual(t, passed, c.least, out)

			// The seed changed: the commitment no longer holds.
			var r map[string]any
			require.NoError(t, json.Unmarshal(rec.Body, &r))
			r["seed"] = r["seed"].(string) + "x"
			b, _ := json.Marshal(r)
			_, failed, out = verify(t, b, events)
			assert.NotZero(t, failed, "a changed seed must fail:\n%s", out)

			// One card the stream shows altered: one check fails.
			if c.ruleset == "silver-and-gold" {
				d := regexp.MustCompile(`(event: display_card\ndata: \{"card":")([a-z]+)-(\d+)`)
				m := d.FindSubmatchIndex(events)
				require.NotNil(t, m, "a display card was dealt")
				num := "01"
				if string(events[m[6]:m[7]]) == "01" {
					num = "02"
				}
				altered := append(append(append([]byte(nil), events[:m[6]]...), num...), events[m[7]:]...)
				_, failed, out = verify(t, rec.Body, altered)
				assert.Equal(t, 1, failed, "one altered display card, one failed check:\n%s", out)
			}
			if k := regexp.MustCompile(`"kind":"(red|blue)"`); c.ruleset == "colorful-treasure" {
				i := k.FindIndex(events)
				require.NotNil(t, i, "a gem was turned over")
				altered := append(append(append([]byte(nil), events[:i[0]]...), []byte(`"kind":"green"`)...), events[i[1]:]...)
				if string(events[i[0]:i[1]]) == `"kind":"red"` {
					altered = append(append(append([]byte(nil), events[:i[0]]...), []byte(`"kind":"blue"`)...), events[i[1]:]...)
				}
				_, failed, out = verify(t, rec.Body, altered)
				assert.Equal(t, 1, failed, "one altered card, one failed check:\n%s", out)
			}
			if c.tamper == nil {
				return
			}
			require.NoError(t, json.Unmarshal(rec.Body, &r))
			var moves []map[string]any
			for _, m := range r["moves"].([]any) {
				moves = append(moves, m.(map[string]any)["move"].(map[string]any))
			}
			require.True(t, c.tamper(moves), "the game has an outcome to alter")
			b, _ = json.Marshal(r)
			_, failed, out = verify(t, b, events)
			assert.Equal(t, 1, failed, "one altered outcome, one failed check:\n%s", out)
		})
	}
}
