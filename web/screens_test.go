package web

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// importFrom is an import's module path.
var importFrom = regexp.MustCompile(`(?m)^import\b[^'"]*['"]([^'"]+)['"]`)

// shared are the shell's modules a game's screen may import: the interface
// and the generic helpers (DOM and API calls, SVG drawing). Its words come
// from the Table it gets, never from the shell's i18n or state.
var shared = map[string]bool{"screen": true, "lib": true, "cards/art": true}

// testShared is what a game's unit tests may import besides: the words and
// the sheet kit of the tests (src/testing.ts).
var testShared = map[string]bool{"testing": true}

// TestScreensDependOnTheInterfaceOnly: a game's app folder imports from the
// shell only its interface and generic helpers, and the shell imports no
// game's folder but through games.gen.ts.
func TestScreensDependOnTheInterfaceOnly(t *testing.T) {
	games := 0
	for _, f := range appFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inGame := !strings.HasPrefix(f, "src"+string(filepath.Separator))
		if inGame && strings.HasSuffix(f, "screen.ts") {
			games++
		}
		for _, m := range importFrom.FindAllStringSubmatch(string(src), -1) {
			path := m[1]
			switch {
			case inGame && strings.Contains(path, "/web/src/"):
				name := path[strings.Index(path, "/web/src/")+len("/web/src/"):]
				if !shared[name] && !(strings.HasSuffix(f, ".test.ts") && testShared[name]) {
					t.Errorf("%s imports %s: a screen takes what it needs from its Table (web/src/screen.ts)", f, path)
				}
			case !inGame && strings.Contains(path, "/domain/") && !strings.Contains(path, "/domain/i18n/") && filepath.Base(f) != "games.gen.ts":
				// (The catalogs of domain/i18n are no game's: the tests read them.)
				t.Errorf("%s imports %s: the shell finds a game's parts through games.gen.ts", f, path)
			}
		}
	}
	if games < 3 {
		t.Fatalf("found only %d games' screens", games)
	}
}

// anyWord is TypeScript's any, as a word.
var anyWord = regexp.MustCompile(`\bany\b`)

// code is a TypeScript source without its comments and the text of its
// string literals (a word in them is no type): what is left is code.
func code(src string) string {
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			// (Its lines are kept, so that a finding names its line.)
			b.WriteString(" " + strings.Repeat("\n", strings.Count(src[i:i+end+4], "\n")))
			i += end + 3
		case c == '\'' || c == '"' || c == '`':
			// A template's ${…} is skipped with its text: it holds
			// expressions, never a type annotation.
			start := i
			for i++; i < len(src) && src[i] != c; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			b.WriteString(`""` + strings.Repeat("\n", strings.Count(src[start:min(i, len(src))], "\n")))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// TestCodeDropsCommentsAndStrings: the scan below sees a type written as
// any, and not the word in a comment or a string.
func TestCodeDropsCommentsAndStrings(t *testing.T) {
	for src, want := range map[string]bool{
		"let x: any = 1;":                     true,
		"const f = (e: any) => e;":            true,
		"call<any>('GET', '/x')":              true,
		"xs as any[]":                         true,
		"let x: unknown; // any more":         false,
		"/* any */ let y = 1;":                false,
		"t('app.ct.any')":                     false,
		`h('p', {}, "any seat")`:              false,
		"`${a} any ${b}`":                     false,
		"let company = 'x'; const anyway = 2": false,
		"/*\n*/\nlet z: any":                  true,
	} {
		if got := anyWord.MatchString(code(src)); got != want {
			t.Errorf("%q: any found %v, want %v", src, got, want)
		}
	}
}

// TestAppHasNoAny: the hand-written TypeScript of the app and the games'
// screens (their tests too) types what it reads from the spec's schemas or
// a precise local type, never any (unknown, narrowed, where a value may be
// anything). The generated *.gen.ts are the spec's own.
func TestAppHasNoAny(t *testing.T) {
	files := 0
	for _, f := range appFiles(t) {
		if strings.HasSuffix(f, ".gen.ts") {
			continue
		}
		files++
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(code(string(src)), "\n") {
			if anyWord.MatchString(line) {
				t.Errorf("%s:%d uses any: type it from the spec (Schemas[…]) or a local type, or take unknown and narrow it", f, n+1)
			}
		}
	}
	if files < 20 {
		t.Fatalf("found only %d hand-written .ts files", files)
	}
}
