package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestScoreSheetNames: a score sheet's names follow the rules of a game's
// names, in every ruleset: names with control or bidirectional characters,
// blank or invisible names, names longer than a game allows and two names
// alike once case and accents are written alike are refused with a problem
// naming the player, and never echoed back; the names people use pass.
func TestScoreSheetNames(t *testing.T) {
	s := newServer(t)
	long := strings.Repeat("x", 60000)
	// sheet is a ruleset's smallest well-formed sheet with these names.
	sheets := map[string]func(names ...string) map[string]any{
		"silver-and-gold": func(names ...string) map[string]any {
			var ps []any
			for _, n := range names {
				ps = append(ps, map[string]any{"name": n})
			}
			return map[string]any{"ruleset": "silver-and-gold", "players": ps}
		},
		"lucky-treasure-hunter": func(names ...string) map[string]any {
			var ps []any
			for _, n := range names {
				ps = append(ps, map[string]any{"name": n, "sets": []any{}, "captain_used": false})
			}
			return map[string]any{"ruleset": "lucky-treasure-hunter", "players": ps}
		},
		"colorful-treasure": func(names ...string) map[string]any {
			var ps []any
			for _, n := range names {
				ps = append(ps, map[string]any{"name": n, "cards": []any{}, "diamond_tokens": []any{}})
			}
			return map[string]any{"ruleset": "colorful-treasure", "players": ps}
		},
	}
	for ruleset, sheet := range sheets {
		t.Run(ruleset, func(t *testing.T) {
			for _, c := range []struct {
				name  string
				names []string
				words []string // in the problem's detail
			}{
				{"a NUL", []string{"Ann", "Ben\x00"}, []string{"player 2", "U+0000"}},
				{"an ANSI escape", []string{"\x1b[2J\x1b[31mAnn", "Ben"}, []string{"player 1", "U+001B"}},
				{"a newline", []string{"Ann\nWINNER: Ben", "Ben"}, []string{"player 1", "U+000A"}},
				{"a right-to-left override", []string{"Ann", "Ben\u202enaJ"}, []string{"player 2", "U+202E", "bidirectional"}},
				{"only a zero-width space", []string{"Ann", "\u200b"}, []string{"player 2", "no visible character"}},
				{"a blank name", []string{"Ann", "  "}, []string{"player 2", "players[1].name"}},
				{"one name twice", []string{"Ann", "ann"}, []string{"player 2", "same as player 1"}},
				{"é precomposed and decomposed", []string{"Ren\u00e9", "Rene\u0301"}, []string{"player 2", "same as player 1"}},
				{"33 characters", []string{"Ann", strings.Repeat("é", 33)}, []string{"player 2", "longer than 32"}},
			} {
				t.Run(c.name, func(t *testing.T) {
					p := wantProblem(t, postSheet(t, s, sheet(c.names...)), http.StatusBadRequest, "invalid")
					for _, w := range c.words {
						if !strings.Contains(p.Detail, w) {
							t.Errorf("detail %q lacks %q", p.Detail, w)
						}
					}
				})
			}
			t.Run("a 60,000-character name", func(t *testing.T) {
				r := postSheet(t, s, sheet("Ann", long))
				if r.Status != http.StatusBadRequest {
					t.Fatalf("status %d, want 400: %.300s", r.Status, r.Body)
				}
				var p problem
				if err := json.Unmarshal(r.Body, &p); err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(p.Detail, "players[1].name") && !strings.Contains(p.Detail, "/players/1/name") {
					t.Errorf("detail %q does not name players[1].name", p.Detail)
				}
				if len(r.Body) > 2000 {
					t.Errorf("the problem echoes the name back: %d bytes", len(r.Body))
				}
			})
			t.Run("names people use", func(t *testing.T) {
				wantStatus(t, postSheet(t, s, sheet("Zoë", "李雷", "Ann-Marie O'Neil")), http.StatusOK)
			})
		})
	}
}

// TestLuckyTreasureHunterSheetTable: a Lucky Treasure Hunter sheet saying 0
// (or 7, or fewer than it lists) played is refused, not read as "left out".
func TestLuckyTreasureHunterSheetTable(t *testing.T) {
	s := newServer(t)
	three := `[{"name":"Ann","sets":[],"captain_used":false},{"name":"Bob","sets":[],"captain_used":false},{"name":"Cy","sets":[],"captain_used":false}]`
	for _, table := range []string{"0", "7", "2"} {
		r := postSheet(t, s, `{"ruleset":"lucky-treasure-hunter","players_at_table":`+table+`,"players":`+three+`}`)
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "players_at_table") {
			t.Errorf("players_at_table %s: status %d, want 400 naming players_at_table: %s", table, r.Status, r.Body)
		}
	}
	wantStatus(t, postSheet(t, s, `{"ruleset":"lucky-treasure-hunter","players_at_table":5,"players":`+three+`}`), http.StatusOK)
}
