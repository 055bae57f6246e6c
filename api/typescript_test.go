package api_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTypeScriptClient generates a TypeScript client from the spec the server
// serves (openapi-typescript), compiles a small program against it with tsc
// --strict, and runs it with node against the server: it creates a Silver &
// Gold game and plays a move, narrowing the unions on their discriminators.
// The tools come from scripts/js (npm ci there; .ci/run does).
func TestTypeScriptClient(t *testing.T) {
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
	s := newServer(t)
	dir := t.TempDir()
	for _, f := range []string{"play.ts", "tsconfig.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", "tsclient", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
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
	run(filepath.Join(abs, "openapi-typescript"), s.http.URL+"/openapi.yaml", "-o", "treasury.d.ts")
	run(filepath.Join(abs, "tsc"), "-p", "tsconfig.json")
	out := run(node, "play.js", s.http.URL)
	if !strings.HasPrefix(out, "ok: ") {
		t.Fatalf("the TypeScript client says: %s", out)
	}
	t.Log(strings.TrimSpace(out))
}
