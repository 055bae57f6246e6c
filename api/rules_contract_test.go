package api_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesets"
)

// TestRuleCodesDocumented holds the rule codes of the contract (the x-rules
// of Problem.rule, per ruleset) to the code: every domain.Refuse call in a
// registered game's package (the folder of its ruleset's Go type) must name
// its rule with a string literal listed for that ruleset, and every rule
// listed must be one some call names.
func TestRuleCodesDocumented(t *testing.T) {
	listed := listedRules(t)
	dirs := map[string]string{filepath.Join("..", "domain"): "*"}
	for _, rs := range rulesets.All() {
		dirs[rulesetDir(t, rs)] = rs.Name()
	}
	emitted := emittedRules(t, dirs)
	for rs, rules := range emitted {
		if _, ok := listed[rs]; !ok {
			t.Errorf("x-rules has no entry for ruleset %s", rs)
			continue
		}
		for rule, at := range rules {
			if listed[rs][rule] == "" {
				t.Errorf("%s: %s refuses a move with rule %q, which x-rules does not list for it", at, rs, rule)
			}
		}
	}
	for rs, rules := range listed {
		for rule, sentence := range rules {
			if _, ok := emitted[rs][rule]; !ok {
				t.Errorf("x-rules lists %s's rule %q, and no domain.Refuse of the ruleset names it", rs, rule)
			}
			if !strings.HasSuffix(sentence, ".") || strings.Count(sentence, ". ") > 0 {
				t.Errorf("x-rules: %s's %q should be one sentence: %q", rs, rule, sentence)
			}
		}
	}
}

// rulesetDir returns the folder of the ruleset's Go package, relative to
// this package's.
func rulesetDir(t *testing.T, rs domain.Ruleset) string {
	t.Helper()
	typ := reflect.TypeOf(rs)
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	rel, ok := strings.CutPrefix(typ.PkgPath(), "github.com/treasury-games/treasury/")
	if !ok {
		t.Fatalf("ruleset %s: its type %s is not in this module", rs.Name(), typ)
	}
	return filepath.Join("..", filepath.FromSlash(rel))
}

// listedRules reads the x-rules of Problem.rule: per ruleset, each rule with
// its sentence.
func listedRules(t *testing.T) map[string]map[string]string {
	t.Helper()
	if spec.Err != nil {
		t.Fatal(spec.Err)
	}
	rule, ok := spec.Doc.Components.Schemas["Problem"].Value.Properties["rule"]
	if !ok {
		t.Fatal("Problem has no rule")
	}
	raw, ok := rule.Value.Extensions["x-rules"]
	if !ok {
		t.Fatal("Problem.rule has no x-rules")
	}
	b, _ := json.Marshal(raw)
	var out map[string]map[string]string
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("x-rules: %v", err)
	}
	return out
}

// emittedRules gathers, per ruleset, the rules named by the domain.Refuse
// calls of the non-test Go files in each of dirs (folder: its ruleset), with
// where each is named first. domain itself names the rules every ruleset
// shares ("*": take-backs).
func emittedRules(t *testing.T, dirs map[string]string) map[string]map[string]string {
	t.Helper()
	type pkg struct {
		ruleset string
		rules   map[string]string
	}
	pkgs := map[string]*pkg{}
	fset := token.NewFileSet()
	for dir, ruleset := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		root := ruleset == "*" // domain itself: its rules are every ruleset's
		p := &pkg{ruleset: ruleset, rules: map[string]string{}}
		pkgs[dir] = p
		for _, e := range entries {
			path := filepath.Join(dir, e.Name())
			if e.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if id, ok := call.Fun.(*ast.Ident); root && ok && id.Name == "Refuse" {
					// domain's own calls (take-backs)
				} else {
					sel, ok := call.Fun.(*ast.SelectorExpr)
					if !ok || sel.Sel.Name != "Refuse" {
						return true
					}
					if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "domain" {
						return true
					}
				}
				at := fset.Position(call.Pos()).String()
				lit, ok := call.Args[0].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Errorf("%s: domain.Refuse names its rule with something other than a string literal", at)
					return true
				}
				rule, _ := strconv.Unquote(lit.Value)
				if _, seen := p.rules[rule]; !seen {
					p.rules[rule] = at
				}
				return true
			})
		}
	}
	out := map[string]map[string]string{}
	names := make([]string, 0, len(pkgs))
	for d := range pkgs {
		names = append(names, d)
	}
	slices.Sort(names)
	for _, d := range names {
		p := pkgs[d]
		if len(p.rules) == 0 {
			continue
		}
		if out[p.ruleset] == nil {
			out[p.ruleset] = map[string]string{}
		}
		for r, at := range p.rules {
			out[p.ruleset][r] = at
		}
	}
	return out
}
