package locale_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/treasury-games/treasury/api/locale"
	"github.com/treasury-games/treasury/domain/i18n"
	"github.com/treasury-games/treasury/domain/names"
)

func TestMatchAcceptLanguage(t *testing.T) {
	for accept, want := range map[string]i18n.Lang{
		"":                          i18n.English,
		"de":                        "de",
		"de-AT,de;q=0.9,en;q=0.5":   "de",
		"fr-FR,fr;q=0.9":            i18n.English,
		"fr-FR,de;q=0.8,en;q=0.7":   "de",
		"en-GB,en;q=0.9,de;q=0.8":   i18n.English,
		"this is not a header;;;q=": i18n.English,
		"*":                         i18n.English,
	} {
		assert.Equal(t, want, locale.Match(accept), "Accept-Language %q", accept)
	}
}

// TestPluralFormsOfCLDR: importing locale gives i18n the plural rules of
// every language, beyond the one/other of English and German.
func TestPluralFormsOfCLDR(t *testing.T) {
	pl := i18n.M("list.and", "count", 3) // a message without forms renders as it is
	assert.Equal(t, "und", i18n.Render("de", pl))
	for _, c := range []struct {
		lang i18n.Lang
		n    int
		want string
	}{{"en", 1, "one"}, {"en", 2, "other"}, {"de", 1, "one"}, {"pl", 3, "few"}, {"pl", 5, "many"}, {"ar", 0, "zero"}} {
		assert.Equal(t, c.want, locale.Form(c.lang, c.n), "%s %d", c.lang, c.n)
	}
}

// TestNamesCompareAsPeopleReadThem: importing locale makes two players'
// names one name when they differ only in case (beyond ASCII) or in how an
// accent is written.
func TestNamesCompareAsPeopleReadThem(t *testing.T) {
	for _, pair := range [][2]string{
		{"STRASSE", "straße"},
		{"Ren\u00e9", "Rene\u0301"},
		{"ΣΟΦΊΑ", "σοφία"},
		{" Ann ", "ANN"},
	} {
		assert.Equal(t, names.Key(pair[0]), names.Key(pair[1]), "%q and %q", pair[0], pair[1])
		assert.Error(t, names.Check(pair[:]), "%q and %q", pair[0], pair[1])
	}
	assert.NotEqual(t, names.Key("Rene"), names.Key("René"), "an accent makes another name")
}

// BenchmarkForm names a plural form, as every label with a count does.
func BenchmarkForm(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if locale.Form("de", 3) != "other" {
			b.Fatal("3 is not other in German")
		}
	}
}
