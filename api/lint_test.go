package api_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestSpecLint runs Redocly's recommended lint of openapi.yaml (with the
// exceptions in redocly.yaml, each with its reason), as client developers'
// tools would read the contract. The tool comes from scripts/js (npm ci
// there; .ci/run does).
func TestSpecLint(t *testing.T) {
	redocly, err := filepath.Abs(filepath.Join("..", "scripts", "js", "node_modules", ".bin", "redocly"))
	if err == nil {
		_, err = os.Stat(redocly)
	}
	if err != nil {
		msg := "Redocly's CLI is missing (npm ci --prefix scripts/js installs it; .ci/run does): " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	cmd := exec.Command(redocly, "lint", "openapi.yaml", "--config", "redocly.yaml", "--format=stylish")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("redocly lint openapi.yaml: %v\n%s", err, out)
	}
}
