// Package i18n says every sentence a player reads in the player's language.
//
// Code never holds a sentence: it names a message by key and gives its
// parameters (a Message). The words live in one catalog file per language,
// locales/<lang>.json, holding every key of the server and of the table app;
// English (en.json) is the source language and the fallback. Adding a
// language is adding one such file.
//
// A catalog maps a key to a template, or to an object of templates by
// plural form ("one", "other", and where a language has them "zero", "two",
// "few", "many"), chosen by the parameter "count" with the language's CLDR
// rules. A template names its parameters in braces: "{seat} must draw
// {count} cards". A parameter may itself be a Message (a term such as a card
// kind), rendered in the same language.
//
// The package imports the standard library only, as all of domain does.
// Matching an Accept-Language header and the plural rules of CLDR for every
// language live outside domain (package api/locale, with golang.org/x/text),
// which installs its rule with SetPluralRule; until then a count of 1 is
// "one" and any other "other", as in English and German.
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Message is a sentence as a key and its parameters. It is what the API
// sends beside every localised text (as <field>_message), so that a client
// may render it in a language of its own.
type Message struct {
	Key    string         `json:"key"`
	Params map[string]any `json:"params,omitempty"`
}

// M returns the message key with the parameters given as name, value pairs.
// A value is a string, an integer or a Message (a term). An odd list is a
// programming error and panics.
func M(key string, kv ...any) Message {
	if len(kv)%2 != 0 {
		panic("i18n: odd parameter list for " + key)
	}
	m := Message{Key: key}
	if len(kv) > 0 {
		m.Params = make(map[string]any, len(kv)/2)
		for i := 0; i < len(kv); i += 2 {
			name, ok := kv[i].(string)
			if !ok {
				panic(fmt.Sprintf("i18n: parameter %d of %s is not a name", i, key))
			}
			m.Params[name] = kv[i+1]
		}
	}
	return m
}

// Zero reports whether m names no message.
func (m Message) Zero() bool { return m.Key == "" }

// Lang is a language the server speaks, as its BCP 47 tag ("en", "de").
type Lang string

// English is the source language and the fallback for a missing key.
const English Lang = "en"

//go:embed locales/*.json
var files embed.FS

type template struct {
	one   string            // the template when there are no plural forms
	forms map[string]string // by plural form, when there are
}

type catalogs struct {
	langs []Lang
	by    map[Lang]map[string]template
	raw   map[Lang][]byte // the catalog, as served to the app
}

var (
	loadOnce sync.Once
	loaded   *catalogs
	loadErr  error
)

func get() *catalogs {
	loadOnce.Do(func() { loaded, loadErr = load(files) })
	if loadErr != nil {
		panic("i18n: " + loadErr.Error())
	}
	return loaded
}

// tagShape is a BCP 47 language tag as a catalog file is named: a language
// and optional subtags ("de", "pt-BR", "sr-Latn").
var tagShape = regexp.MustCompile(`^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)

// load reads every locales/<lang>.json: one file a language.
func load(fsys fs.FS) (*catalogs, error) {
	names, err := fs.Glob(fsys, "locales/*.json")
	if err != nil {
		return nil, err
	}
	c := &catalogs{by: map[Lang]map[string]template{}, raw: map[Lang][]byte{}}
	byLang := map[Lang]map[string]json.RawMessage{}
	for _, name := range names {
		lang := Lang(strings.TrimSuffix(path.Base(name), ".json"))
		if !tagShape.MatchString(string(lang)) {
			return nil, fmt.Errorf("%s: %q is not a language tag", name, lang)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		byLang[lang] = m
	}
	if byLang[English] == nil {
		return nil, fmt.Errorf("no English catalog (locales/en.json)")
	}
	for lang, m := range byLang {
		t := make(map[string]template, len(m))
		for k, v := range m {
			var s string
			if err := json.Unmarshal(v, &s); err == nil {
				t[k] = template{one: s}
				continue
			}
			var forms map[string]string
			if err := json.Unmarshal(v, &forms); err != nil || forms["other"] == "" {
				return nil, fmt.Errorf("%s: key %q is neither a template nor plural forms with \"other\"", lang, k)
			}
			t[k] = template{forms: forms}
		}
		c.by[lang] = t
		raw, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		c.raw[lang] = raw
		c.langs = append(c.langs, lang)
	}
	sort.Slice(c.langs, func(i, j int) bool {
		// English first: the fallback of api/locale's matcher.
		if (c.langs[i] == English) != (c.langs[j] == English) {
			return c.langs[i] == English
		}
		return c.langs[i] < c.langs[j]
	})
	return c, nil
}

// Languages returns the languages with a catalog, English first.
func Languages() []Lang { return append([]Lang(nil), get().langs...) }

// Supported reports whether lang has a catalog.
func Supported(lang Lang) bool { _, ok := get().by[lang]; return ok }

// Catalog returns the catalog of lang as JSON (its every key), for a client to render messages itself; nil for a language
// without one.
func Catalog(lang Lang) []byte { return get().raw[lang] }

// Keys returns the keys of lang's catalog, sorted.
func Keys(lang Lang) []string {
	t := get().by[lang]
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Params returns the parameter names key uses in lang's catalog (in any of
// its plural forms, with "count" where it has forms), sorted; ok is false
// when lang has no such key.
func Params(lang Lang, key string) (names []string, ok bool) {
	t, ok := get().by[lang][key]
	if !ok {
		return nil, false
	}
	set := map[string]bool{}
	add := func(s string) {
		for _, p := range placeholders(s) {
			set[p] = true
		}
	}
	add(t.one)
	for _, s := range t.forms {
		add(s)
	}
	if t.forms != nil {
		set["count"] = true
	}
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, true
}

// Has reports whether lang's catalog holds key.
func Has(lang Lang, key string) bool { _, ok := get().by[lang][key]; return ok }

// Render returns m in lang: from lang's catalog, else from English, else
// the key itself (a missing key is a defect that the catalog tests find,
// never a failure of the request).
func Render(lang Lang, m Message) string {
	if m.Key == "" {
		return ""
	}
	c := get()
	t, ok := c.by[lang][m.Key]
	if !ok {
		lang = English
		if t, ok = c.by[English][m.Key]; !ok {
			return m.Key
		}
	}
	s := t.one
	if t.forms != nil {
		s = t.forms[form(lang, m.Params["count"])]
		if s == "" {
			s = t.forms["other"]
		}
	}
	return fill(lang, s, m.Params)
}

// Text renders m in English, the language of logs and of Error strings.
func Text(m Message) string { return Render(English, m) }

func form(lang Lang, count any) string {
	n, ok := toInt(count)
	if !ok {
		return "other"
	}
	return formOf(lang, n)
}

// formOf names the plural form of the whole number n in lang.
func formOf(lang Lang, n int) string {
	if n < 0 {
		n = -n
	}
	pluralMu.RLock()
	rule := pluralRule
	pluralMu.RUnlock()
	return rule(lang, n)
}

var (
	pluralMu   sync.RWMutex
	pluralRule = func(_ Lang, n int) string {
		if n == 1 {
			return "one"
		}
		return "other"
	}
)

// SetPluralRule installs the rule that names the plural form ("zero",
// "one", "two", "few", "many" or "other") of a whole number n in lang.
func SetPluralRule(rule func(lang Lang, n int) string) {
	pluralMu.Lock()
	pluralRule = rule
	pluralMu.Unlock()
}

func toInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case int32:
		return int(n), true
	case float64:
		return int(n), n == float64(int(n))
	}
	return 0, false
}

// fill replaces each {name} of s by its parameter. Braces not naming a
// parameter of the message are left as they are.
func fill(lang Lang, s string, params map[string]any) string {
	if !strings.Contains(s, "{") {
		return s
	}
	var b strings.Builder
	// Room for the template and short values at once: a listing renders a
	// label per entry, and growing by doubling made three or four
	// allocations of each (6% of the server's per move, issue 27).
	b.Grow(len(s) + 32)
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		name := s[i+1 : i+j]
		v, ok := params[name]
		b.WriteString(s[:i])
		if ok {
			b.WriteString(value(lang, v))
		} else {
			b.WriteString(s[i : i+j+1])
		}
		s = s[i+j+1:]
	}
}

func value(lang Lang, v any) string {
	switch x := v.(type) {
	case string:
		return x
	case Message:
		return Render(lang, x)
	case *Message:
		return Render(lang, *x)
	case []Message:
		parts := make([]string, len(x))
		for i, m := range x {
			parts[i] = Render(lang, m)
		}
		return List(lang, parts)
	case []string:
		return List(lang, x)
	case int:
		return strconv.Itoa(x)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

// List joins items as a sentence does in lang: "a, b and c" ("a, b und c").
func List(lang Lang, items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	and := Render(lang, Message{Key: "list.and"})
	return strings.Join(items[:len(items)-1], ", ") + " " + and + " " + items[len(items)-1]
}

func placeholders(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return out
		}
		out = append(out, s[i+1:i+j])
		s = s[i+j+1:]
	}
}

// Localize returns the JSON document b with every text that has a message
// beside it rendered in lang: in any object, a member "<name>_message"
// holding a Message sets the member "<name>" to the message in lang. The
// server writes English texts; for English b is returned as it is. A
// document that does not decode is returned as it is.
func Localize(lang Lang, b []byte) []byte {
	if lang == English || !Supported(lang) || !strings.Contains(string(b), "_message\"") {
		return b
	}
	var doc any
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		return b
	}
	localize(lang, doc)
	out, err := json.Marshal(doc)
	if err != nil {
		return b
	}
	return out
}

func localize(lang Lang, v any) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			localize(lang, e)
		}
	case map[string]any:
		for k, e := range x {
			if name, ok := strings.CutSuffix(k, "_message"); ok && name != "" {
				if m, ok := asMessage(e); ok {
					x[name] = Render(lang, m)
					continue
				}
			}
			localize(lang, e)
		}
	}
}

// asMessage reads a decoded {"key":…, "params":…} object, with nested
// messages among the parameters.
func asMessage(v any) (Message, bool) {
	o, ok := v.(map[string]any)
	if !ok {
		return Message{}, false
	}
	key, ok := o["key"].(string)
	if !ok || key == "" {
		return Message{}, false
	}
	m := Message{Key: key}
	if p, ok := o["params"].(map[string]any); ok {
		m.Params = make(map[string]any, len(p))
		for name, pv := range p {
			m.Params[name] = decodedParam(pv)
		}
	}
	return m, true
}

func allStrings(x []any) ([]string, bool) {
	out := make([]string, len(x))
	for i, e := range x {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// UnmarshalJSON reads a message as Localize does: integers as ints, nested
// {key, params} objects as Messages, lists as []string or []Message.
func (m *Message) UnmarshalJSON(b []byte) error {
	var v any
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return err
	}
	if v == nil {
		*m = Message{}
		return nil
	}
	got, ok := asMessage(v)
	if !ok {
		return fmt.Errorf("i18n: a message is an object with a key, not %s", b)
	}
	*m = got
	return nil
}

func decodedParam(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return int(n)
		}
		return x.String()
	case map[string]any:
		if m, ok := asMessage(x); ok {
			return m
		}
	case []any:
		if strs, ok := allStrings(x); ok {
			return strs
		}
		ms := make([]Message, 0, len(x))
		for _, e := range x {
			m, ok := asMessage(e)
			if !ok {
				return fmt.Sprint(v)
			}
			ms = append(ms, m)
		}
		return ms
	}
	return v
}
