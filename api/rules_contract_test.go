package api_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/domain/rulesets"
)

// TestRuleCodesDocumented holds the rule codes of the contract (the x-rules
// of Problem.rule, per ruleset) to the code: every domain.Refuse call in a
// game's package (its ruleset named by the package's RulesetName constant)
// must name its rule with a string literal listed for that ruleset, and every
// rule listed must be one some call names.
func TestRuleCodesDocumented(t *testing.T) {
	listed := listedRules(t)
	emitted := emittedRules(t, filepath.Join("..", "domain"))
	for _, rs := range rulesets.All() {
		if _, ok := emitted[rs.Name()]; !ok {
			t.Errorf("no package of domain/ has RulesetName %q", rs.Name())
		}
	}
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

// listedRules reads the x-rules of Problem.rule: per ruleset, each rule with
// its sentence.
func listedRules(t *testing.T) map[string]map[string]string {
	t.Helper()
	if spec.err != nil {
		t.Fatal(spec.err)
	}
	rule, ok := spec.doc.Components.Schemas["Problem"].Value.Properties["rule"]
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
// calls of the non-test Go files under dir, with where each is named first.
// A package's ruleset is its RulesetName constant; domain/rulesettest (a
// test game) is left out; domain itself names the rules every ruleset shares
// ("*": take-backs).
func emittedRules(t *testing.T, dir string) map[string]map[string]string {
	t.Helper()
	type pkg struct {
		ruleset string
		rules   map[string]string
	}
	pkgs := map[string]*pkg{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "rulesettest" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		root := filepath.Dir(path) == dir // domain itself: its rules are every ruleset's ("*")
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		p := pkgs[filepath.Dir(path)]
		if p == nil {
			p = &pkg{rules: map[string]string{}}
			if root {
				p.ruleset = "*"
			}
			pkgs[filepath.Dir(path)] = p
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if name.Name == "RulesetName" && i < len(n.Values) {
						if lit, ok := n.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							p.ruleset, _ = strconv.Unquote(lit.Value)
						}
					}
				}
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); root && ok && id.Name == "Refuse" {
					// domain's own calls (take-backs)
				} else {
					sel, ok := n.Fun.(*ast.SelectorExpr)
					if !ok || sel.Sel.Name != "Refuse" {
						return true
					}
					if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "domain" {
						return true
					}
				}
				at := fset.Position(n.Pos()).String()
				lit, ok := n.Args[0].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Errorf("%s: domain.Refuse names its rule with something other than a string literal", at)
					return true
				}
				rule, _ := strconv.Unquote(lit.Value)
				if _, seen := p.rules[rule]; !seen {
					p.rules[rule] = at
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]string{}
	dirs := make([]string, 0, len(pkgs))
	for d := range pkgs {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	for _, d := range dirs {
		p := pkgs[d]
		if len(p.rules) == 0 {
			continue
		}
		if p.ruleset == "" {
			t.Errorf("%s calls domain.Refuse and has no RulesetName constant to say whose rules they are", d)
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
