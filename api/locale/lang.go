// Package locale chooses the language of an answer and the plural forms of
// every language, by the Unicode CLDR data of golang.org/x/text: what
// domain/i18n (standard library only) leaves to the edge of the server.
// Importing it installs the plural rules into i18n, and into domain/names the
// Unicode comparison of players' names (normalisation and full case folding).
package locale

import (
	"strings"
	"sync"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"

	"github.com/treasury-games/treasury/domain/i18n"
)

func init() {
	i18n.SetPluralRule(form)
}

var (
	once    sync.Once
	langs   []i18n.Lang
	matcher language.Matcher
	// tagByLang is each of langs's tag.
	tagByLang map[i18n.Lang]language.Tag
)

func load() {
	langs = i18n.Languages() // English first: the matcher's fallback
	tags := make([]language.Tag, len(langs))
	tagByLang = make(map[i18n.Lang]language.Tag, len(langs))
	for i, l := range langs {
		tags[i] = language.Make(string(l))
		tagByLang[l] = tags[i]
	}
	matcher = language.NewMatcher(tags)
}

// Match returns the language to answer in for an Accept-Language header
// (or a plain tag such as "de-AT"): the best one with a catalog, English
// when none fits or the header cannot be read.
func Match(accept string) i18n.Lang {
	if strings.TrimSpace(accept) == "" {
		return i18n.English
	}
	once.Do(load)
	tags, _, err := language.ParseAcceptLanguage(accept)
	if err != nil || len(tags) == 0 {
		return i18n.English
	}
	_, i, conf := matcher.Match(tags...)
	if conf == language.No {
		return i18n.English
	}
	return langs[i]
}

// tagOf returns lang's tag, parsed once for the languages with a catalog:
// every label with a count names its plural form, a listing has dozens, and
// parsing the tag each time took 1.4% of the server's CPU in a load run
// (issue 27).
func tagOf(lang i18n.Lang) language.Tag {
	once.Do(load)
	if t, ok := tagByLang[lang]; ok {
		return t
	}
	return language.Make(string(lang))
}

// form names CLDR's cardinal plural form of the whole number n in lang.
func form(lang i18n.Lang, n int) string {
	switch plural.Cardinal.MatchPlural(tagOf(lang), n, 0, 0, 0, 0) {
	case plural.Zero:
		return "zero"
	case plural.One:
		return "one"
	case plural.Two:
		return "two"
	case plural.Few:
		return "few"
	case plural.Many:
		return "many"
	}
	return "other"
}
