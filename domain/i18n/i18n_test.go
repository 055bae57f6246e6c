package i18n_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/treasury-games/treasury/domain/i18n"
)

func TestRenderFallsBackToEnglishThenKey(t *testing.T) {
	assert.Equal(t, "und", i18n.Render("de", i18n.M("list.and")))
	assert.Equal(t, "and", i18n.Render("xx", i18n.M("list.and")))
	assert.Equal(t, "no.such.key", i18n.Render("de", i18n.M("no.such.key")))
	assert.Equal(t, "a, b und c", i18n.List("de", []string{"a", "b", "c"}))
}

func TestLocalizeRendersEveryMessageMember(t *testing.T) {
	in := `{"label":"x and y","label_message":{"key":"list.and"},"moves":[{"detail":"internal error","detail_message":{"key":"error.internal"}}],"n":3}`
	out := string(i18n.Localize("de", []byte(in)))
	assert.Contains(t, out, `"label":"und"`)
	assert.Contains(t, out, `"detail":"interner Fehler"`)
	assert.Contains(t, out, `"n":3`)
	assert.Equal(t, in, string(i18n.Localize(i18n.English, []byte(in))))
}

// TestEveryLanguageHasEveryKeyWithTheSameParameters holds each catalog to
// English: the same keys, each with the same parameters, so that no player
// meets a key or an English sentence in their language and no template
// names a parameter that is never given.
func TestEveryLanguageHasEveryKeyWithTheSameParameters(t *testing.T) {
	en := i18n.Keys(i18n.English)
	for _, lang := range i18n.Languages() {
		if lang == i18n.English {
			continue
		}
		have := map[string]bool{}
		for _, k := range i18n.Keys(lang) {
			have[k] = true
			if !i18n.Has(i18n.English, k) {
				t.Errorf("%s has key %q, which English has not (unused, or misspelt)", lang, k)
			}
		}
		for _, k := range en {
			if !have[k] {
				t.Errorf("%s lacks key %q", lang, k)
				continue
			}
			want, _ := i18n.Params(i18n.English, k)
			got, _ := i18n.Params(lang, k)
			assert.Equal(t, want, got, "%s: parameters of %q", lang, k)
		}
	}
}

func TestMessageRoundTripsThroughJSON(t *testing.T) {
	m := i18n.M("list.and", "n", 3, "names", []string{"a", "b"}, "term", i18n.M("error.internal"), "terms", []i18n.Message{i18n.M("list.and")})
	b, err := json.Marshal(m)
	assert.NoError(t, err)
	var back i18n.Message
	assert.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, m, back)
}
