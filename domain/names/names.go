// Package names holds the one rule for players' names, in games and on score
// sheets alike: what a name may hold and when two names are the same.
//
// Two names are the same when they are once normalised (NFC) and case-folded.
// The standard library can do neither fully, and domain/ imports nothing else,
// so the comparison is installed from the edge of the server (api/locale does it
// on import with golang.org/x/text, as it installs plural rules into i18n). Until
// then names compare by simple per-letter case folding ("ANN" and "ann" are one
// name; "STRASSE" and "straße", or "é" written two ways, are not).
package names

import (
	"fmt"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// codePoint writes r as U+XXXX.
func codePoint(r rune) string { return fmt.Sprintf("U+%04X", r) }

// Check refuses names that cannot name a player or would mislead whoever
// reads them: blank names, names longer than domain.MaxNameLength characters
// (surrounding space trimmed), control characters (a terminal obeys NUL,
// BEL, escape sequences and line breaks), bidirectional overrides and
// isolates (U+202E turns what follows around), invalid UTF-8 or U+FFFD (text
// lost on the way), and names with nothing visible (only U+200B, say). Names
// must differ once canonically normalised (NFC: "é" and "e" + U+0301 are one
// name) and case-folded. The error is domain.Invalid and names the player by
// number and by place in the JSON that carried it (players[i].name); it
// never repeats a name that broke the rules.
func Check(names []string) error {
	seen := make(map[string]int, len(names))
	for i, name := range names {
		who := i18n.M("table.names.who", "player", i+1, "index", i)
		if !utf8.ValidString(name) {
			return domain.Fail(domain.Invalid, "table.names.utf8", "who", who)
		}
		name = strings.TrimSpace(name)
		if name == "" {
			return domain.Fail(domain.Invalid, "table.names.blank", "who", who)
		}
		visible := false
		for _, r := range name {
			switch {
			case r == utf8.RuneError:
				return domain.Fail(domain.Invalid, "table.names.replacement", "who", who)
			case unicode.IsControl(r):
				return domain.Fail(domain.Invalid, "table.names.control", "who", who, "char", codePoint(r))
			case isBidiControl(r):
				return domain.Fail(domain.Invalid, "table.names.bidi", "who", who, "char", codePoint(r))
			case isVisible(r):
				visible = true
			}
		}
		if !visible {
			return domain.Fail(domain.Invalid, "table.names.invisible", "who", who)
		}
		if utf8.RuneCountInString(name) > domain.MaxNameLength {
			return domain.Fail(domain.Invalid, "table.names.long", "who", who, "max", domain.MaxNameLength)
		}
		k := key(name)
		if j, dup := seen[k]; dup {
			return domain.Fail(domain.Invalid, "table.names.same", "who", who, "other", j+1, "name", strings.TrimSpace(names[j]))
		}
		seen[k] = i
	}
	return nil
}

// CheckSeed refuses a seed a person could not read back or type in again
// (it is shown once the game ends, and replayed from records): control
// characters such as NUL or escape, bidirectional controls, invalid UTF-8
// or U+FFFD.
func CheckSeed(seed string) error {
	if !utf8.ValidString(seed) {
		return domain.Fail(domain.Invalid, "table.seed.utf8")
	}
	for i, r := range seed {
		switch {
		case r == utf8.RuneError:
			return domain.Fail(domain.Invalid, "table.seed.replacement", "byte", i)
		case unicode.IsControl(r):
			return domain.Fail(domain.Invalid, "table.seed.control", "char", codePoint(r), "byte", i)
		case isBidiControl(r):
			return domain.Fail(domain.Invalid, "table.seed.bidi", "char", codePoint(r), "byte", i)
		}
	}
	return nil
}

// key is the form in which two names are compared: trimmed, then folded by
// the installed Fold.
func key(name string) string {
	return (*fold.Load())(strings.TrimSpace(name))
}

// fold is the installed comparison form (SetFold), simpleFold until then.
var fold atomic.Pointer[func(string) string]

func init() {
	f := simpleFold
	fold.Store(&f)
}

// SetFold installs the form two names are compared in: f must be
// idempotent and map names people read as one to one string (full case
// folding and canonical normalisation). Set it once, at start-up, before any
// name is compared: keys already kept (a group's members) were made with the
// fold of their day.
func SetFold(f func(string) string) { fold.Store(&f) }

// simpleFold folds each letter to the least of its case variants (Unicode
// simple case folding: A and a, Σ, σ and ς), with no normalisation.
func simpleFold(s string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s)
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

// Key is the form in which two names are compared (as Check compares them):
// two names with the same key are one name. Groups keep it to hold their
// members' names unique.
func Key(name string) string { return key(name) }
