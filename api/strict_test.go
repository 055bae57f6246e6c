package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestStrictInput: what the contract does not allow is refused with a 400
// problem saying what is wrong, not read some way: option values of no
// option's type (null, 2.0), seeds with control characters, JSON objects
// naming a member twice, a Bearer header with two spaces.
func TestStrictInput(t *testing.T) {
	s := newServer(t)
	lth := func(options string) string {
		return `{"ruleset":"lucky-treasure-hunter","mode":"digital","players":[{"name":"Ann"},{"name":"Ben"}],"options":` + options + `}`
	}
	for _, tc := range []struct {
		name, body, code string
		says             []string
	}{
		{"option null", lth(`{"captain_heart":null}`), "invalid", []string{"captain_heart", "null"}},
		{"option 2.0", lth(`{"pirate_faces":2.0}`), "invalid", []string{"pirate_faces", "2.0", "whole number"}},
		{"option 2e0", lth(`{"pirate_faces":2e0}`), "invalid", []string{"pirate_faces", "2e0"}},
		{"seed with NUL", `{"ruleset":"silver-and-gold","mode":"digital","players":[{"name":"Ann"}],"seed":"a\u0000b"}`, "invalid", []string{"seed", "U+0000"}},
		{"seed with escape", `{"ruleset":"silver-and-gold","mode":"digital","players":[{"name":"Ann"}],"seed":"\u001b[31mred"}`, "invalid", []string{"seed", "U+001B"}},
		{"seed with a line break", `{"ruleset":"silver-and-gold","mode":"digital","players":[{"name":"Ann"}],"seed":"one\ntwo"}`, "invalid", []string{"seed", "U+000A"}},
		{"seed with a bidirectional override", `{"ruleset":"silver-and-gold","mode":"digital","players":[{"name":"Ann"}],"seed":"abc\u202edef"}`, "invalid", []string{"seed", "U+202E"}},
		{"duplicate key", `{"ruleset":"silver-and-gold","mode":"physical","mode":"digital","players":[{"name":"Ann"}]}`, "malformed_json", []string{`"mode" twice`}},
		{"duplicate key, escaped", `{"ruleset":"silver-and-gold","mode":"physical","m\u006fde":"digital","players":[{"name":"Ann"}]}`, "malformed_json", []string{`"mode" twice`}},
		{"duplicate key, nested", `{"ruleset":"silver-and-gold","mode":"digital","players":[{"name":"Ann","name":"Bob"}]}`, "malformed_json", []string{`"name" twice`}},
		{"duplicate option", lth(`{"pirate_faces":2,"pirate_faces":4}`), "malformed_json", []string{`"pirate_faces" twice`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := wantProblem(t, s.Do(t, http.MethodPost, "/v1/games", tc.body), http.StatusBadRequest, tc.code)
			for _, w := range tc.says {
				if !strings.Contains(p.Detail, w) {
					t.Errorf("the problem does not say %q: %s", w, p.Detail)
				}
			}
		})
	}
	t.Run("allowed", func(t *testing.T) {
		for _, body := range []string{
			lth(`{"pirate_faces":2,"captain_heart":1}`),
			lth(`{}`),
			`{"ruleset":"silver-and-gold","mode":"digital","players":[{"name":"Ann"},{"name":"Ben"}],"seed":"friday night: 42 € ✓"}`,
		} {
			wantStatus(t, s.Do(t, http.MethodPost, "/v1/games", body), http.StatusCreated)
		}
	})

	tb := newTable(t, s, "digital", 2, "")
	t.Run("bearer", func(t *testing.T) {
		wantStatus(t, s.Do(t, http.MethodGet, tb.path(""), nil, header("Authorization", "Bearer "+tb.seats[0])), http.StatusOK)
		wantStatus(t, s.Do(t, http.MethodGet, tb.path(""), nil, header("Authorization", "bearer "+tb.seats[0])), http.StatusOK)
		for _, tc := range []struct{ value, says string }{
			{"Bearer  " + tb.seats[0], "more than one space"},
			{"Bearer " + tb.seats[0] + " " + tb.seats[1], "space or tab within"},
			{"Bearer " + tb.seats[0] + "\t", ""}, // trailing space is not part of a header value
			{"Bearer \"" + tb.seats[0] + "\"", `'"'`},
		} {
			r := s.Do(t, http.MethodGet, tb.path(""), nil, header("Authorization", tc.value))
			if tc.says == "" {
				wantStatus(t, r, http.StatusOK)
				continue
			}
			p := wantProblem(t, r, http.StatusBadRequest, "invalid")
			if !strings.Contains(p.Detail, tc.says) || !strings.Contains(p.Detail, "Bearer <credential>") {
				t.Errorf("Authorization %q: the problem does not say %q: %s", tc.value, tc.says, p.Detail)
			}
		}
	})
}
