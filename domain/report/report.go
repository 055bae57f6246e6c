// Package report is what treasury verify prints for people, shared by the
// command and the games: a ruleset that has a report of its own implements
// Writer, and every ruleset's report uses the same translator and layout
// helpers, so that the command names no game.
package report

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/treasury-games/treasury/domain/i18n"
)

// A Writer is a Ruleset that writes its checked score sheets and replayed
// scores for people. treasury verify writes a ruleset without one as the
// totals and places every ruleset's answer has.
type Writer interface {
	// DigitalHow is the message key of what replaying a digital game of
	// the ruleset proves ("the seed deals every card drawn").
	DigitalHow() string
	// WriteSheet writes a checked sheet: result is VerifySheet's answer,
	// its texts already in t's language.
	WriteSheet(t T, w io.Writer, result []byte) error
	// WriteScore writes the score of a replayed game (the ruleset's Score
	// JSON), beginning with whether the game has ended.
	WriteScore(t T, w io.Writer, score []byte) error
}

// T renders a report's sentences in one language.
type T struct{ Lang i18n.Lang }

// S renders message key with its parameters (name, value pairs).
func (t T) S(key string, kv ...any) string { return i18n.Render(t.Lang, i18n.M(key, kv...)) }

// Term renders the term prefix+id, or id itself when there is no such term.
func (t T) Term(prefix, id string) string {
	if !i18n.Has(i18n.English, prefix+id) {
		return id
	}
	return i18n.Render(t.Lang, i18n.M(prefix+id))
}

// LinePrefix starts the names of score lines and columns in a report.
const LinePrefix = "table.verify.line."

// Header returns the name of column id in t's language and its width.
func (t T) Header(id string) (string, int) {
	name := t.Term(LinePrefix, id)
	return name, utf8.RuneCountInString(name)
}

// PadRight pads s with spaces to width characters.
func PadRight(s string, width int) string {
	if n := width - utf8.RuneCountInString(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// OneLine keeps a name on its line in a table: its line breaks and tabs are
// written as escapes.
func OneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	return strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(s)
}

// Sentence ends a reason with a full stop, on one line (a reason may quote
// a name).
func Sentence(s string) string {
	s = OneLine(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}

// SheetVerdict writes that a checked sheet holds no mistake, or the head of
// the list of its n mistakes; it returns whether the list is to follow.
func (t T) SheetVerdict(w io.Writer, valid bool, n int) bool {
	if valid {
		fmt.Fprintln(w, t.S("table.verify.sheet-valid"))
		return false
	}
	fmt.Fprintln(w, t.S("table.verify.sheet-mistakes-head", "count", n))
	return true
}

// Where names what a finding is about: the player at index *player of
// players (name gives the name of index i), or the whole table.
func (t T) Where(player *int, players int, name func(i int) string) string {
	if player != nil && *player < players {
		return name(*player)
	}
	return t.S("table.verify.whole-table")
}

// ScoresHead writes whether the scores that follow are final.
func (t T) ScoresHead(w io.Writer, final bool) {
	if !final {
		fmt.Fprintln(w, t.S("table.verify.scores-not-ended"))
	} else {
		fmt.Fprintln(w, t.S("table.verify.scores-final"))
	}
}
