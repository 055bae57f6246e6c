package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestPlayerNames: names that would mislead a reader are refused with a
// problem naming the player; names that differ only in case or in how an
// accent is encoded count as the same; ordinary names of any script pass.
func TestPlayerNames(t *testing.T) {
	s := newServer(t)
	create := func(names ...string) resp {
		var ps []string
		for _, n := range names {
			ps = append(ps, `{"name":"`+n+`"}`)
		}
		return s.Do(t, http.MethodPost, "/v1/games", `{"ruleset":"silver-and-gold","mode":"physical","players":[`+strings.Join(ps, ",")+`]}`)
	}
	for _, c := range []struct {
		name  string
		names []string // as JSON string contents
		words []string // in the problem's detail
	}{
		{"NUL", []string{"Ann", `Ben\u0000`}, []string{"player 2", "U+0000"}},
		{"BEL", []string{`\u0007Ann`}, []string{"player 1", "control"}},
		{"an ANSI escape", []string{`\u001b[2J\u001b[31mAnn`}, []string{"player 1", "U+001B"}},
		{"a newline", []string{`Ann\nWINNER: Ben`}, []string{"player 1", "U+000A"}},
		{"DEL", []string{"Ann\x7f"}, []string{"U+007F"}},
		{"a right-to-left override", []string{"Ann", "Ben\u202enaJ"}, []string{"player 2", "U+202E", "bidirectional"}},
		{"a bidi isolate", []string{"\u2067Ann"}, []string{"U+2067"}},
		{"only a zero-width space", []string{"Ann", "\u200b"}, []string{"player 2", "no visible character"}},
		{"only a Hangul filler", []string{"\u3164"}, []string{"no visible character"}},
		{"a lone surrogate, escaped", []string{`Ann\ud800`}, []string{"U+FFFD"}},
		{"é precomposed and decomposed", []string{"Ren\u00e9", "Rene\u0301"}, []string{"player 2", "same as player 1"}},
		{"case folding beyond ASCII", []string{"STRASSE", "straße"}, []string{"player 2", "same as player 1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := wantProblem(t, create(c.names...), http.StatusBadRequest, "invalid")
			for _, w := range c.words {
				if !strings.Contains(p.Detail, w) {
					t.Errorf("detail %q lacks %q", p.Detail, w)
				}
			}
		})
	}
	t.Run("invalid UTF-8", func(t *testing.T) {
		wantProblem(t, create("Ann\xff"), http.StatusBadRequest, "malformed_json")
	})
	t.Run("names people use", func(t *testing.T) {
		wantStatus(t, create("Zoë", "李雷", "Ann-Marie O'Neil", "Ωmega 🎲"), http.StatusCreated)
	})
}
