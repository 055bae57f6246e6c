package api_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/domain/rulesets"
)

// TestTypeScriptClient generates a TypeScript client from the spec the server
// serves (openapi-typescript), compiles a small program against it with tsc
// --strict, and runs it with node against the server: it creates a Silver &
// Gold game and plays a move, narrowing the unions on their discriminators.
// The tools come from scripts/js (npm ci there; .ci/run does).
func TestTypeScriptClient(t *testing.T) {
	out := runTypeScript(t, newServer(t), filepath.Join("testdata", "tsclient"), "play.ts")
	if !strings.HasPrefix(out, "ok: ") {
		t.Fatalf("the TypeScript client says: %s", out)
	}
	t.Log(strings.TrimSpace(out))
}

// TestTypeScriptTableClient runs scripts/tableclient, the generic client in
// TypeScript: with no code for any game it plays every ruleset the server
// lists, digital and physical, to the end, from the listings and the event
// stream alone, at close to one request per move.
func TestTypeScriptTableClient(t *testing.T) {
	out := runTypeScript(t, newServer(t), filepath.Join("..", "scripts", "tableclient"), "tableclient.ts")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var played []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "ok: ") {
			t.Fatalf("the table client says: %s", out)
		}
		f := strings.Fields(l)
		played = append(played, f[1]+" "+f[2])
		var per float64
		if _, err := fmt.Sscanf(l[strings.Index(l, "), ")+3:], "%f requests per move", &per); err != nil || per >= 1.5 {
			t.Errorf("%s: want fewer than 1.5 requests per move (%v)", l, err)
		}
	}
	want := []string{}
	for _, r := range rulesets.All() {
		for _, m := range r.Info().Modes {
			want = append(want, r.Name()+" "+m)
		}
	}
	if strings.Join(played, ", ") != strings.Join(want, ", ") {
		t.Errorf("played %v, want every ruleset in every mode: %v", played, want)
	}
	t.Log(strings.TrimSpace(out))
}

// runTypeScript generates treasury.d.ts from the spec s serves
// (openapi-typescript), compiles program (in dir, with tsconfig.json) with
// tsc --strict, and runs it with node against s. It skips, or fails in CI,
// when the tools are missing.
func runTypeScript(t *testing.T, s *server, dir, program string) string {
	t.Helper()
	tools := filepath.Join("..", "scripts", "js", "node_modules", ".bin")
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(tools, "tsc"))
	}
	if err != nil {
		msg := "node or the TypeScript tools are missing (npm ci --prefix scripts/js installs them; .ci/run does): " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	work := t.TempDir()
	for _, f := range []string{program, "tsconfig.json"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = work
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	abs, err := filepath.Abs(tools)
	if err != nil {
		t.Fatal(err)
	}
	run(filepath.Join(abs, "openapi-typescript"), s.HTTP.URL+"/openapi.yaml", "-o", "treasury.d.ts")
	run(filepath.Join(abs, "tsc"), "-p", "tsconfig.json")
	return run(node, strings.TrimSuffix(program, ".ts")+".js", s.HTTP.URL)
}
