package i18n_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/domain/i18n"
)

// jsString matches a JavaScript string literal in single or double quotes
// (template literals with ${…} are not keys).
var jsString = regexp.MustCompile(`'([^'\\\n]*)'|"([^"\\\n]*)"`)

// sourceLiterals returns every string literal of the repository's
// hand-written Go code (tests and generated code left out) and of the table
// app's sources, with the file each first appears in.
func sourceLiterals(t *testing.T) map[string]string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	lits := map[string]string{}
	add := func(s, file string) {
		if _, ok := lits[s]; !ok {
			lits[s] = file
		}
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch rel {
			case "web/dist", "node_modules", "scripts/js/node_modules", "web/node_modules", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") && !strings.HasSuffix(path, ".gen.go"):
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if b, ok := n.(*ast.BasicLit); ok && b.Kind == token.STRING {
					if s, err := strconv.Unquote(b.Value); err == nil {
						add(s, rel)
					}
				}
				return true
			})
		case appSource(rel):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range jsString.FindAllStringSubmatch(string(b), -1) {
				add(m[1]+m[2], rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return lits
}

// TestEveryKeyIsUsedAndEveryUsedKeyIsThere binds the catalogs to the code:
// a key in the English catalog that no source names (as a literal, or under
// a literal prefix ending in "." that the code completes with an id) is
// unused; a literal in a catalog's namespace that is not a key is a missing
// key, which a player would read as the key itself.
func TestEveryKeyIsUsedAndEveryUsedKeyIsThere(t *testing.T) {
	lits := sourceLiterals(t)
	keys := i18n.Keys(i18n.English)
	namespaces := map[string]bool{}
	for _, k := range keys {
		namespaces[k[:strings.IndexByte(k+".", '.')]] = true
	}
	var prefixes []string
	for s := range lits {
		if strings.HasSuffix(s, ".") && strings.Count(s, ".") >= 1 && namespaces[s[:strings.IndexByte(s, '.')]] && !strings.ContainsAny(s, " \t") {
			prefixes = append(prefixes, s)
		}
	}
	sort.Strings(prefixes)
	var unused []string
	for _, k := range keys {
		if _, ok := lits[k]; ok {
			continue
		}
		used := false
		for _, p := range prefixes {
			if strings.HasPrefix(k, p) {
				used = true
				break
			}
		}
		if !used {
			unused = append(unused, k)
		}
	}
	if len(unused) > 0 {
		t.Errorf("%d catalog keys are used nowhere in the code (remove them, or name them as literals):\n  %s", len(unused), strings.Join(unused, "\n  "))
	}
	fileName := regexp.MustCompile(`\.(js|css|json|go|html|svg|png|webmanifest|md|yaml|sql|log|txt|pem|conf)$`)
	keyShape := regexp.MustCompile(`^[a-z]+(\.[A-Za-z0-9_-]+)+$`)
	var missing []string
	for s, file := range lits {
		if !keyShape.MatchString(s) || !namespaces[s[:strings.IndexByte(s, '.')]] || fileName.MatchString(s) {
			continue
		}
		if !i18n.Has(i18n.English, s) {
			missing = append(missing, s+" ("+file+")")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d keys named in the code are missing from the English catalog:\n  %s", len(missing), strings.Join(missing, "\n  "))
	}
}

// TestNoPlayerTextWithoutAMessage holds that code a player may meet never
// builds a reason in English alone: outside tests, no call of domain.Errorf
// (English only, for test doubles) and no sentence handed to the
// English-only constructors.
func TestNoPlayerTextWithoutAMessage(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "node_modules" || d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, ".gen.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var name string
			switch fun := call.Fun.(type) {
			case *ast.SelectorExpr:
				if x, ok := fun.X.(*ast.Ident); ok && x.Name == "domain" {
					name = fun.Sel.Name
				}
			case *ast.Ident:
				if f.Name.Name == "domain" {
					name = fun.Name
				}
			}
			if name == "Errorf" {
				t.Errorf("%s: domain.Errorf gives a player English only; use domain.Fail or domain.Refuse with a message key", fset.Position(call.Pos()))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// appSource says whether rel (from the repository's root) is a source of the
// table app: its TypeScript under web/src and each game's screen under
// domain/<game>/app, the tests and the generated files aside.
func appSource(rel string) bool {
	rel = filepath.ToSlash(rel)
	parts := strings.Split(rel, "/")
	inApp := strings.HasPrefix(rel, "web/src/") || (len(parts) > 3 && parts[0] == "domain" && parts[2] == "app")
	return inApp && strings.HasSuffix(rel, ".ts") && !strings.HasSuffix(rel, ".test.ts") && !strings.HasSuffix(rel, ".gen.ts")
}
