package api

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/treasury-games/treasury/domain"
)

// checkPlayerNames refuses names that would mislead whoever reads them:
// control characters (a terminal obeys NUL, BEL, escape sequences and line
// breaks), bidirectional overrides and isolates (U+202E turns what follows
// around), invalid UTF-8 or U+FFFD (text lost on the way), and names with
// nothing visible (only U+200B, say). Names must differ once canonically
// normalised (NFC: "é" and "e" + U+0301 are one name) and case-folded. The
// ruleset checks the rest (length, blank names). The error names the
// player.
func checkPlayerNames(names []string) error {
	seen := make(map[string]int, len(names))
	for i, name := range names {
		who := fmt.Sprintf("player %d's name (players[%d].name)", i+1, i)
		if !utf8.ValidString(name) {
			return domain.Errorf(domain.Invalid, "%s is not valid UTF-8", who)
		}
		visible := false
		for _, r := range name {
			switch {
			case r == utf8.RuneError:
				return domain.Errorf(domain.Invalid, "%s holds U+FFFD, the mark of text lost in encoding; send the name as it is written", who)
			case unicode.IsControl(r):
				return domain.Errorf(domain.Invalid, "%s holds the control character U+%04X; a name is printable text on one line", who, r)
			case isBidiControl(r):
				return domain.Errorf(domain.Invalid, "%s holds the bidirectional control U+%04X, which reorders the text around it; leave it out", who, r)
			case isVisible(r):
				visible = true
			}
		}
		if !visible && strings.TrimSpace(name) != "" {
			return domain.Errorf(domain.Invalid, "%s has no visible character; give a name people can read", who)
		}
		key := nameKey(name)
		if j, dup := seen[key]; dup {
			return domain.Errorf(domain.Invalid, "%s is the same as player %d's, %q, once case and accents are written alike; give each seat its own name", who, j+1, names[j])
		}
		seen[key] = i
	}
	return nil
}

// checkSeed refuses a seed a person could not read back or type in again
// (it is shown once the game ends, and replayed from records): control
// characters such as NUL or escape, bidirectional controls, invalid UTF-8
// or U+FFFD.
func checkSeed(seed string) error {
	if !utf8.ValidString(seed) {
		return domain.Errorf(domain.Invalid, "the seed is not valid UTF-8")
	}
	for i, r := range seed {
		switch {
		case r == utf8.RuneError:
			return domain.Errorf(domain.Invalid, "the seed holds U+FFFD (at byte %d), the mark of text lost in encoding; a seed is printable text", i)
		case unicode.IsControl(r):
			return domain.Errorf(domain.Invalid, "the seed holds the control character U+%04X (at byte %d); a seed is printable text on one line", r, i)
		case isBidiControl(r):
			return domain.Errorf(domain.Invalid, "the seed holds the bidirectional control U+%04X (at byte %d), which reorders the text around it; leave it out", r, i)
		}
	}
	return nil
}

// nameKey is the form in which two names are compared: trimmed, normalised
// to NFC and case-folded (then normalised again, as folding may decompose).
func nameKey(name string) string {
	return norm.NFC.String(cases.Fold().String(norm.NFC.String(strings.TrimSpace(name))))
}

// isBidiControl reports whether r is one of Unicode's bidirectional
// formatting characters: marks, embeddings, overrides and isolates.
func isBidiControl(r rune) bool {
	switch {
	case r == '\u061C', r == '\u200E', r == '\u200F':
		return true
	case r >= '\u202A' && r <= '\u202E':
		return true
	case r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}

// isVisible reports whether r leaves a mark: not a space, a format
// character (such as U+200B), a combining mark alone, or one of the letters
// that draw nothing (Hangul fillers, the braille blank).
func isVisible(r rune) bool {
	switch r {
	case '\u115F', '\u1160', '\u3164', '\uFFA0', '\u2800', '\u180E':
		return false
	}
	return unicode.IsGraphic(r) && !unicode.IsSpace(r) && !unicode.Is(unicode.Cf, r) && !unicode.In(r, unicode.Mn, unicode.Me)
}
