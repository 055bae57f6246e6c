package report_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/treasury-games/treasury/domain/i18n"
	"github.com/treasury-games/treasury/domain/report"
)

func TestLayout(t *testing.T) {
	assert.Equal(t, "Zoë  |", report.PadRight("Zoë", 5)+"|", "pads by characters, not bytes")
	assert.Equal(t, "Alexander", report.PadRight("Alexander", 3), "never cuts")
	assert.Equal(t, `Ann\nBen\t.`, report.OneLine("Ann\nBen\t."), "a name keeps to its line")
	assert.Equal(t, "the cup is taken.", report.Sentence("the cup is taken"))
	assert.Equal(t, "is it?", report.Sentence("is it?"))
	assert.Equal(t, "", report.Sentence(""))
}

func TestT(t *testing.T) {
	de := report.T{Lang: i18n.Lang("de")}
	name, width := de.Header("player")
	assert.Equal(t, "Spieler", name)
	assert.Equal(t, 7, width)
	assert.Equal(t, "no-such-line", de.Term(report.LinePrefix, "no-such-line"), "an id without a term is shown as it is")
}

func TestVerdicts(t *testing.T) {
	en := report.T{Lang: i18n.English}
	var b strings.Builder
	assert.False(t, en.SheetVerdict(&b, true, 0), "no list follows a valid sheet")
	assert.True(t, en.SheetVerdict(&b, false, 2), "the list of mistakes follows")
	en.ScoresHead(&b, true)
	en.ScoresHead(&b, false)
	assert.Equal(t, "The sheet is valid: nothing on it breaks the rules.\nThe sheet has 2 mistakes:\nFinal scores:\nThe game had not ended; the scores as they stood:\n", b.String())

	names := func(i int) string { return []string{"Ann", "Ben"}[i] }
	one, nine := 1, 9
	assert.Equal(t, "Ben", en.Where(&one, 2, names))
	assert.Equal(t, en.Where(nil, 2, names), en.Where(&nine, 2, names), "a seat out of range is the whole table")
	assert.NotEqual(t, "", en.Where(nil, 2, names))
}
