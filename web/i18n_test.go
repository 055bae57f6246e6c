package web

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/domain/i18n"
)

// appLiteral is a quoted string in the app's source that names a catalog
// key of the app (app.…); one ending in "." is a prefix the code completes
// with an id (app.colour. + "grey").
var appLiteral = regexp.MustCompile(`['"](app\.[a-z0-9_.-]*)['"]`)

// tCall is t('key' …): every key the app renders by a literal.
var tCall = regexp.MustCompile(`\bt\(\s*['"]([^'"]+)['"]`)

// appSources reads web/src's scripts, the tests of the renderer aside.
func appSources(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir("src", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") || strings.HasSuffix(p, ".test.js") {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAppKeysAreInTheCatalogs: every key the app's code names is in the
// catalogs (in every language: TestEveryLanguageHasEveryKeyWithTheSameParameters
// of domain/i18n), and every app.… key of the catalogs is named by the code,
// as a literal or under a prefix the code completes.
func TestAppKeysAreInTheCatalogs(t *testing.T) {
	keys := map[string]bool{}
	for _, k := range i18n.Keys(i18n.English) {
		keys[k] = true
	}
	used := map[string]bool{}
	var prefixes []string
	for file, src := range appSources(t) {
		for _, m := range tCall.FindAllStringSubmatch(src, -1) {
			if !keys[m[1]] {
				t.Errorf("%s: t(%q): no such key in the catalogs", file, m[1])
			}
			used[m[1]] = true
		}
		for _, m := range appLiteral.FindAllStringSubmatch(src, -1) {
			if strings.HasSuffix(m[1], ".") {
				prefixes = append(prefixes, m[1])
				continue
			}
			if !keys[m[1]] {
				t.Errorf("%s: %q: no such key in the catalogs", file, m[1])
			}
			used[m[1]] = true
		}
	}
	sort.Strings(prefixes)
	var unused []string
	for k := range keys {
		if !strings.HasPrefix(k, "app.") || used[k] {
			continue
		}
		covered := false
		for _, p := range prefixes {
			covered = covered || strings.HasPrefix(k, p)
		}
		if !covered {
			unused = append(unused, k)
		}
	}
	sort.Strings(unused)
	for _, k := range unused {
		t.Errorf("%s is in the catalogs but no code of web/src names it", k)
	}
	if len(used) < 100 {
		t.Errorf("found only %d keys in web/src: the scan misses the app's t() calls", len(used))
	}
}

// TestAppRenderer runs the renderer's own tests (web/src/i18n.test.js)
// with Node, which scripts/build-web.sh needs anyway.
func TestAppRenderer(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no node on PATH: CI must run web/src/i18n.test.js")
		}
		t.Skip("no node on PATH: web/src/i18n.test.js not run")
	}
	out, err := exec.Command(node, "--test", "src/").CombinedOutput()
	if err != nil {
		t.Fatalf("node --test src/: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "# fail 0") {
		t.Fatalf("node --test src/ ran no tests or failed:\n%s", out)
	}
}
