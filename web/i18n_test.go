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

// appSources reads the app's TypeScript: web/src and each game's screen
// (domain/<game>/app), the tests and the generated files aside.
func appSources(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range appFiles(t) {
		if strings.HasSuffix(f, ".test.ts") || strings.HasSuffix(f, ".gen.ts") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(b)
	}
	if len(out) < 10 {
		t.Fatalf("found only %d source files of the app: %v", len(out), out)
	}
	return out
}

// appFiles lists the app's .ts files: under web/src and the games' app/
// folders.
func appFiles(t *testing.T) []string {
	t.Helper()
	roots := []string{"src"}
	games, err := filepath.Glob(filepath.Join("..", "domain", "*", "app"))
	if err != nil {
		t.Fatal(err)
	}
	roots = append(roots, games...)
	var files []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".ts") {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(files)
	return files
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

// TestAppUnits runs the unit tests of the app's pure logic (*.test.ts in
// web/src and the games' app/ folders: i18n rendering, stream parsing,
// choosing a legal move's parts) with Node's test runner, each bundled to
// JavaScript by esbuild first (Node 20 runs no TypeScript). Both come with
// scripts/build-web.sh (npm ci in web/).
func TestAppUnits(t *testing.T) {
	node, err := exec.LookPath("node")
	esbuild := filepath.Join("node_modules", ".bin", "esbuild")
	if err == nil {
		_, err = os.Stat(esbuild)
	}
	if err != nil {
		msg := "node or esbuild missing (scripts/build-web.sh installs esbuild in web/node_modules): the app's unit tests were not run: " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	var tests []string
	for _, f := range appFiles(t) {
		if strings.HasSuffix(f, ".test.ts") {
			tests = append(tests, f)
		}
	}
	if len(tests) == 0 {
		t.Fatal("no *.test.ts found")
	}
	out := t.TempDir()
	args := append([]string{"--bundle", "--format=esm", "--platform=node", "--target=node20",
		"--outdir=" + out, "--out-extension:.js=.mjs", "--log-level=warning"}, tests...)
	if b, err := exec.Command(esbuild, args...).CombinedOutput(); err != nil {
		t.Fatalf("esbuild %v: %v\n%s", tests, err, b)
	}
	var compiled []string
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".test.mjs") {
			compiled = append(compiled, p)
		}
		return err
	})
	if err != nil || len(compiled) != len(tests) {
		t.Fatalf("esbuild wrote %v for %v (%v)", compiled, tests, err)
	}
	b, err := exec.Command(node, append([]string{"--test"}, compiled...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("node --test: %v\n%s", err, b)
	}
	if !strings.Contains(string(b), "# fail 0") || strings.Contains(string(b), "# pass 0") {
		t.Fatalf("node --test ran no tests or failed:\n%s", b)
	}
	t.Logf("%d test files: %s", len(tests), b[strings.LastIndex(string(b), "# tests"):])
}
