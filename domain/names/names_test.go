package names_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
	"github.com/treasury-games/treasury/domain/names"
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name   string
		names  []string
		reason string // in the error's reason; "" for none
	}{
		{"names people use", []string{"Zoë", "李雷", " Ann-Marie O'Neil ", "Ωmega 🎲"}, ""},
		{"32 characters", []string{strings.Repeat("é", 32)}, ""},
		{"33 characters", []string{"Ann", strings.Repeat("é", 33)}, "player 2's name (players[1].name) is longer than 32 characters"},
		{"blank", []string{"Ann", " \t "}, "player 2's name (players[1].name) is blank"},
		{"a control character", []string{"Ann\x00"}, "U+0000"},
		{"a control character in a long name", []string{strings.Repeat("x", 60000) + "\x1b"}, "U+001B"},
		{"a bidi isolate", []string{"\u2067Ann"}, "bidirectional control U+2067"},
		{"nothing visible", []string{"\u200b\u3164"}, "no visible character"},
		{"invalid UTF-8", []string{"Ann\xff"}, "not valid UTF-8"},
		{"case", []string{"ANN", "ann"}, `the same as player 1's, "ANN"`},
		{"case beyond ASCII", []string{"ΣΟΦΙΑ", "σοφια"}, "the same as player 1's"},
		{"surrounding space", []string{"Ann", " Ann "}, "the same as player 1's"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := names.Check(c.names)
			if c.reason == "" {
				assert.NoError(t, err)
				return
			}
			assert.Equal(t, domain.Invalid, domain.ErrorCode(err))
			assert.Contains(t, domain.ErrorReason(err), c.reason)
			assert.Less(t, len(domain.ErrorReason(err)), 300, "the reason repeats the name")
		})
	}
}

// TestCheckInGerman: a refused name is told to a German table in German,
// naming the player as the English does.
func TestCheckInGerman(t *testing.T) {
	for given, want := range map[string]string{
		"Ann|":     "der Name von Spieler 2 (players[1].name) ist leer; schreib den Namen des Spielers hin",
		"ANN|ann":  "der Name von Spieler 2 (players[1].name) ist derselbe wie der von Spieler 1, „ANN“, wenn man Groß- und Kleinschreibung und Akzente gleich schreibt; gib jedem Spieler einen eigenen Namen",
		"Ann\x1b|": "der Name von Spieler 1 (players[0].name) enthält das Steuerzeichen U+001B; ein Name ist druckbarer Text in einer Zeile",
	} {
		err := names.Check(strings.Split(given, "|"))
		assert.Equal(t, want, i18n.Render("de", domain.ErrorMessage(err)), "%q", given)
	}
	err := names.CheckSeed("a\u202eb")
	assert.Equal(t, "der Seed enthält das Richtungs-Steuerzeichen U+202E (bei Byte 1), das den Text darum herum umordnet; lass es weg", i18n.Render("de", domain.ErrorMessage(err)))
}

// TestSetFold: names compare in the installed form (the server installs
// Unicode's full folding and normalisation from api/locale); without one,
// case alone is folded and an accent written two ways makes two names.
func TestSetFold(t *testing.T) {
	assert.NoError(t, names.Check([]string{"Ren\u00e9", "Rene\u0301"}), "no normalisation in the standard library")
	names.SetFold(func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "e\u0301", "\u00e9") })
	t.Cleanup(func() { names.SetFold(names.SimpleFold) })
	err := names.Check([]string{"Ren\u00e9", "Rene\u0301"})
	assert.Contains(t, domain.ErrorReason(err), "the same as player 1's")
	assert.Equal(t, names.Key("RENÉ"), names.Key("Rene\u0301"))
}
