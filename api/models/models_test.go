package models_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// declared returns the top-level types, constants and variables a Go file
// declares.
func declared(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range g.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				names[s.Name.Name] = true
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names[n.Name] = true
				}
			}
		}
	}
	return names
}

// TestTypesGeneratedOnce holds the server and the Go client to the types of
// this package: neither generated file declares a model of its own, so a
// value the server answers with is the very type the client decodes.
func TestTypesGeneratedOnce(t *testing.T) {
	models := declared(t, "types.gen.go")
	if !models["Game"] || !models["CreateGameRequest"] {
		t.Fatalf("types.gen.go declares no Game or CreateGameRequest: %d names", len(models))
	}
	for _, path := range []string{"../oapi/server.gen.go", "../client/client.gen.go"} {
		for name := range declared(t, path) {
			if models[name] {
				t.Errorf("%s declares %s again; generate it without models, importing package models", path, name)
			}
		}
	}
}
