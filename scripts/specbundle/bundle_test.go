package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/rulesettest/handgame"
)

// bundled reads a bundle as the generic document a client reads.
func bundled(t *testing.T, spec []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := yaml.Unmarshal(spec, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func schemaOf(t *testing.T, doc map[string]any, name string) map[string]any {
	t.Helper()
	s, ok := doc["components"].(map[string]any)["schemas"].(map[string]any)[name].(map[string]any)
	if !ok {
		t.Fatalf("the bundle has no schema %s", name)
	}
	return s
}

// TestBundleAddsAGame bundles the repository's base with the registered games
// and the hidden-hand test game, and checks what a client of the fifth game
// reads: its schemas, its members of the unions with their discriminator
// values, its events (x-events, StreamEvent) and its rules.
func TestBundleAddsAGame(t *testing.T) {
	games, err := loadGames("../..", append(rulesets.All(), handgame.Rules{}))
	if err != nil {
		t.Fatal(err)
	}
	base, err := os.ReadFile(filepath.Join("../..", BaseFile))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := Bundle(base, games)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(spec), "openapi: 3.0.3\n"+Header+"\n") {
		t.Errorf("the bundle does not start with its version and %q", Header)
	}
	doc := bundled(t, spec)
	for _, s := range []string{"HandGameView", "HandGamePlay", "HandGameLegal", "HandGameScore", "SilverGoldView"} {
		schemaOf(t, doc, s)
	}
	mappings := map[string]map[string]string{
		"Move":       {"play": "HandGamePlay", "keep": "SilverGoldKeep", "take_back": "TakeBack"},
		"GameState":  {handgame.Name: "HandGameView", "silver-and-gold": "SilverGoldView"},
		"LegalMoves": {handgame.Name: "HandGameLegal"},
		"Score":      {handgame.Name: "HandGameScore"},
	}
	for union, want := range mappings {
		s := schemaOf(t, doc, union)
		if _, ok := s["x-bundle"]; ok {
			t.Errorf("%s: the bundler's marker x-bundle is served", union)
		}
		mapping := s["discriminator"].(map[string]any)["mapping"].(map[string]any)
		var members []string
		for _, m := range s["oneOf"].([]any) {
			members = append(members, m.(map[string]any)["$ref"].(string))
		}
		for key, schema := range want {
			ref := "#/components/schemas/" + schema
			if mapping[key] != ref {
				t.Errorf("%s: mapping[%s] = %v, want %s", union, key, mapping[key], ref)
			}
			if !strings.Contains(strings.Join(members, " "), ref) {
				t.Errorf("%s: oneOf %v lacks %s", union, members, ref)
			}
		}
		if !strings.Contains(s["description"].(string), "for `"+handgame.Name+"` ") {
			t.Errorf("%s: the description does not name the fifth game: %s", union, s["description"])
		}
	}
	events := schemaOf(t, doc, "EventStream")["x-events"].(map[string]any)[handgame.Name].(map[string]any)
	if events["card_played"].(map[string]any)["$ref"] != "#/components/schemas/HandGamePlayed" {
		t.Errorf("x-events of %s: %v", handgame.Name, events)
	}
	n := 0
	for _, m := range schemaOf(t, doc, "StreamEvent")["oneOf"].([]any) {
		p := m.(map[string]any)["properties"].(map[string]any)
		if rs := p["ruleset"].(map[string]any)["enum"].([]any); len(rs) == 1 && rs[0] == handgame.Name {
			n++
		}
	}
	if n != len(events) {
		t.Errorf("StreamEvent has %d members for %s, x-events %d events", n, handgame.Name, len(events))
	}
	rules := schemaOf(t, doc, "Problem")["properties"].(map[string]any)["rule"].(map[string]any)["x-rules"].(map[string]any)
	if _, ok := rules[handgame.Name].(map[string]any)["played-once"]; !ok {
		t.Errorf("x-rules of %s: %v", handgame.Name, rules[handgame.Name])
	}
	if d := doc["info"].(map[string]any)["description"].(string); !strings.Contains(d, "plays four games") || !strings.Contains(d, "`"+handgame.Name+"`") {
		t.Errorf("info.description does not count or name the games:\n%s", d)
	}
	if strings.Contains(string(spec), "{{") {
		t.Error("a placeholder of the base is left in the bundle")
	}
}

// TestBundleRefusesBadGames: a game's file that names a union the base does
// not have, or a move without its discriminator value, is an error naming the
// file, not a broken openapi.yaml.
func TestBundleRefusesBadGames(t *testing.T) {
	base, err := os.ReadFile(filepath.Join("../..", BaseFile))
	if err != nil {
		t.Fatal(err)
	}
	for name, file := range map[string]string{
		"unknown union":  "x-bundle:\n  unions:\n    Moves: [XMove]\ncomponents:\n  schemas:\n    XMove:\n      type: object\n",
		"no move type":   "x-bundle:\n  unions:\n    Move: [XMove]\ncomponents:\n  schemas:\n    XMove:\n      type: object\n",
		"no such schema": "x-bundle:\n  unions:\n    Move: [YMove]\ncomponents:\n  schemas:\n    XMove:\n      type: object\n",
	} {
		t.Run(name, func(t *testing.T) {
			g := &Game{Name: "x", Title: "X", Folder: "domain/x", lines: splitLines([]byte(file))}
			if err := yaml.Unmarshal([]byte(file), &g.spec); err != nil {
				t.Fatal(err)
			}
			_, err := Bundle(base, []*Game{g})
			if err == nil || !strings.Contains(err.Error(), "domain/x/openapi.yaml") {
				t.Errorf("Bundle: %v, want an error naming domain/x/openapi.yaml", err)
			}
		})
	}
}

// TestScreensListsGamesWithAScreen: the app's list imports the screen of
// every game whose folder has app/screen.ts, by folder name, and leaves out
// the others.
func TestScreensListsGamesWithAScreen(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"domain/zeta/app/screen.ts", "domain/alpha/app/screen.ts"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	games := []*Game{{Folder: "domain/zeta"}, {Folder: "domain/noscreen"}, {Folder: "domain/alpha"}}
	want := `// Code generated by scripts/specbundle from domain/rulesets; DO NOT EDIT.
import alpha from '../../domain/alpha/app/screen';
import zeta from '../../domain/zeta/app/screen';

export const screens = [alpha, zeta];
`
	if got := string(Screens(root, games)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
