package web

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// importFrom is an import's module path.
var importFrom = regexp.MustCompile(`(?m)^import\b[^'"]*['"]([^'"]+)['"]`)

// shared are the shell's modules a game's screen may import: the interface
// and the generic helpers (DOM and API calls, SVG drawing). Its words come
// from the Table it gets, never from the shell's i18n or state.
var shared = map[string]bool{"screen": true, "lib": true, "cards/art": true}

// TestScreensDependOnTheInterfaceOnly: a game's app folder imports from the
// shell only its interface and generic helpers, and the shell imports no
// game's folder but through games.gen.ts.
func TestScreensDependOnTheInterfaceOnly(t *testing.T) {
	games := 0
	for _, f := range appFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inGame := !strings.HasPrefix(f, "src"+string(filepath.Separator))
		if inGame && strings.HasSuffix(f, "screen.ts") {
			games++
		}
		for _, m := range importFrom.FindAllStringSubmatch(string(src), -1) {
			path := m[1]
			switch {
			case inGame && strings.Contains(path, "/web/src/"):
				if !shared[path[strings.Index(path, "/web/src/")+len("/web/src/"):]] {
					t.Errorf("%s imports %s: a screen takes what it needs from its Table (web/src/screen.ts)", f, path)
				}
			case !inGame && strings.Contains(path, "/domain/") && filepath.Base(f) != "games.gen.ts":
				t.Errorf("%s imports %s: the shell finds a game's parts through games.gen.ts", f, path)
			}
		}
	}
	if games < 3 {
		t.Fatalf("found only %d games' screens", games)
	}
}
