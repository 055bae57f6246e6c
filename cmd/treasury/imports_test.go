package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/treasury-games/treasury/"

// imports returns the import paths of the Go file at path.
func imports(t *testing.T, path string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range f.Imports {
		p, _ := strconv.Unquote(s.Path.Value)
		out = append(out, p)
	}
	return out
}

// TestCmdImportsNoGame holds that the commands reach the games only through
// their registration in domain/rulesets: a game is a package domain/rulesets
// imports, and no file the commands build from imports one, so that adding a
// game touches nothing in cmd.
func TestCmdImportsNoGame(t *testing.T) {
	games := map[string]bool{}
	regs, err := filepath.Glob(filepath.Join("..", "..", "domain", "rulesets", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range regs {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		for _, p := range imports(t, path) {
			if strings.HasPrefix(p, module+"domain/") {
				games[p] = true
			}
		}
	}
	if len(games) < 3 {
		t.Fatalf("domain/rulesets registers %d games; the test reads it wrong", len(games))
	}
	checked := 0
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		checked++
		for _, p := range imports(t, path) {
			if games[p] {
				t.Errorf("%s imports the game %s: reach it through domain/rulesets", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no file of cmd read")
	}
}
