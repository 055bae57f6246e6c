package report_test

import (
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
