package silvergold_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
	sg "github.com/treasury-games/treasury/domain/silvergold"
)

// saysInGerman asserts that m renders from a key every language has, that
// english (where given) is its English, and that German says it otherwise.
func saysInGerman(t *testing.T, m i18n.Message, english string) {
	t.Helper()
	require.NotEmpty(t, m.Key, "no message beside %q", english)
	for _, lang := range i18n.Languages() {
		assert.True(t, i18n.Has(lang, m.Key), "%s lacks %q", lang, m.Key)
	}
	en, de := i18n.Render(i18n.English, m), i18n.Render("de", m)
	if english != "" {
		assert.Equal(t, english, en)
	}
	assert.NotEqual(t, en, de, "%s is not said in German", m.Key)
	assert.NotContains(t, de, "{", "a placeholder of %s is left", m.Key)
	assert.NotContains(t, en, "{", "a placeholder of %s is left", m.Key)
}

// errorSaysInGerman asserts that err's reason is a message said in German.
func errorSaysInGerman(t *testing.T, err error) {
	t.Helper()
	saysInGerman(t, domain.ErrorMessage(err), domain.ErrorReason(err))
}

// TestSheetInGerman reads a few findings and a refusal of a score sheet as a
// German table reads them, from the JSON the API localises.
func TestSheetInGerman(t *testing.T) {
	s := sheetTable()
	s.Players[0].Total = sheetInt(89) // 95 less the seals line, 6
	s.Players[1].Coins, s.Players[1].Cups = 3, []int{5}
	res := sheetVerify(t, s)
	b, err := json.Marshal(res)
	require.NoError(t, err)
	var de sg.SheetResult
	require.NoError(t, json.Unmarshal(i18n.Localize("de", b), &de))
	var reasons []string
	for _, f := range de.Findings {
		reasons = append(reasons, f.Reason)
	}
	assert.Contains(t, reasons, "Sarah hat 89 eingetragen; die Zeilen ergeben 95 (Münzen 9 + Pokale 8 + Palmen 8 + Karten 64 + Siegel 6): 6 zu wenig; die Siegelzeile (6) scheint vergessen")
	assert.Contains(t, reasons, "Tom hat 1 Pokal eingetragen, aber 3 Münzen füllen 0 Reihen, und nur eine volle Münzreihe aus 4 Münzen bringt einen Pokal")
	assert.Equal(t, "weniger Punkte als Sarah", de.Ranking[1].DecidedByLabel)

	s = sheetTable()
	s.Players[1].Cards[0].ID = "grey-12"
	_, err = sg.VerifySheet(sg.Standard(), s)
	assert.Equal(t, `players[1] (Tom): cards[0] ist "grey-12", aber der Katalog standard hat keine Karte mit dieser ID`,
		i18n.Render("de", domain.ErrorMessage(err)))
}
