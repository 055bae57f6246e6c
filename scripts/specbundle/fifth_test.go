package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/scripts/internal/proc"
)

// The registration a fifth game takes: its entry in rulesets.All(), and the
// import Go asks for with it.
const (
	rulesetsFile   = "domain/rulesets/rulesets.go"
	handgameImport = "\t\"github.com/treasury-games/treasury/domain/rulesettest/handgame\"\n"
	handgameEntry  = "\t\thandgame.Rules{},\n"
	handgameName   = "hidden-hand-test-game"
)

// TestFifthGameIsOneRegistration copies the module, registers the test-only
// hidden-hand game (domain/rulesettest/handgame, which brings its own
// openapi.yaml) in domain/rulesets, and regenerates, builds and vets the
// copy. Every file that then differs is generated output, but for the
// registration in rulesets.go; and the server built from the copy plays the
// fifth game over HTTP: it lists it, creates a game of it and accepts a
// legal move. It builds the whole module, well over a minute on a loaded
// machine, so -short skips it.
func TestFifthGameIsOneRegistration(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a copy of the module and its server (1-3 minutes)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyModule(t, root, dir)
	sh(t, dir, "git", "init", "-q")
	sh(t, dir, "git", "add", "-A")
	sh(t, dir, "git", "-c", "user.name=specbundle", "-c", "user.email=specbundle@test", "commit", "-q", "-m", "the module as it is")

	register(t, filepath.Join(dir, rulesetsFile))
	sh(t, dir, "go", "generate", "./...")
	sh(t, dir, "go", "build", "./...")
	sh(t, dir, "go", "vet", "./api/...")

	// (a) What differs: the registration, and generated files only.
	changed := strings.Fields(sh(t, dir, "git", "status", "--porcelain", "--untracked-files=all"))
	var generated []string
	for i := 0; i+1 < len(changed); i += 2 {
		status, file := changed[i], changed[i+1]
		switch {
		case file == rulesetsFile:
			if got := strings.TrimSpace(sh(t, dir, "git", "diff", "--numstat", "--", file)); got != "2\t0\t"+file {
				t.Errorf("%s: want the import and the entry added (2 lines), git diff --numstat says %q:\n%s", file, got, sh(t, dir, "git", "diff", "--", file))
			}
		case isGenerated(t, filepath.Join(dir, file)):
			generated = append(generated, file)
		default:
			t.Errorf("%s %s: changed by registering a game, and not generated output", status, file)
		}
	}
	t.Logf("generated output that changed: %v", generated)
	for _, want := range []string{"openapi.yaml", "api/models/types.gen.go", EventTypesFile} {
		if !strings.Contains(" "+strings.Join(generated, " ")+" ", " "+want+" ") {
			t.Errorf("%s did not change: the game's part of the contract is not in it (changed: %v)", want, generated)
		}
	}

	// (b) The server built from the copy plays the fifth game.
	bin := filepath.Join(t.TempDir(), "treasury")
	if err := proc.Build(context.Background(), dir, "./cmd/treasury", bin); err != nil {
		t.Fatal(err)
	}
	c, err := client.NewClientWithResponses(serve(t, bin))
	if err != nil {
		t.Fatal(err)
	}
	// The client is this module's, generated before the fifth game: the
	// game's views and moves pass through its unions as JSON.
	ctx := context.Background()
	list, err := c.ListRulesetsWithResponse(ctx)
	answered(t, "GET /v1/rulesets", list.HTTPResponse, list.Body, err, http.StatusOK)
	var names []string
	for _, r := range list.JSON200.Rulesets {
		names = append(names, r.Name)
	}
	if !slices.Contains(names, handgameName) {
		t.Errorf("GET /v1/rulesets does not list %s: %v", handgameName, names)
	}
	spec, err := c.GetOpenAPIWithResponse(ctx)
	answered(t, "GET /openapi.yaml", spec.HTTPResponse, spec.Body, err, http.StatusOK)
	if !bytes.Contains(spec.Body, []byte("\n    HandGamePlay:\n")) {
		t.Error("the served openapi.yaml has no HandGamePlay schema")
	}
	created, err := c.CreateGameWithBodyWithResponse(ctx, nil, "application/json", strings.NewReader(
		`{"ruleset":"`+handgameName+`","mode":"digital","players":[{"name":"Ann"},{"name":"Bob"}]}`))
	answered(t, "POST /v1/games", created.HTTPResponse, created.Body, err, http.StatusCreated)
	id, seat0 := created.JSON201.Game.Id, client.Bearer(created.JSON201.Credentials.Seats[0])
	if created.JSON201.Game.Ruleset != handgameName {
		t.Fatalf("created a game of %q: %s", created.JSON201.Game.Ruleset, created.Body)
	}
	legal, err := c.GetLegalMovesWithResponse(ctx, id, nil, seat0)
	answered(t, "GET legal-moves", legal.HTTPResponse, legal.Body, err, http.StatusOK)
	var listing struct {
		Moves []struct {
			Move json.RawMessage `json:"move"`
		} `json:"moves"`
	}
	if err := json.Unmarshal(legal.Body, &listing); err != nil || len(listing.Moves) == 0 {
		t.Fatalf("seat 0, on turn, is listed no move (%v): %s", err, legal.Body)
	}
	move := listing.Moves[0].Move
	moved, err := c.SubmitMoveWithBodyWithResponse(ctx, id, nil, "application/json", bytes.NewReader(move), seat0)
	answered(t, "POST move "+string(move), moved.HTTPResponse, moved.Body, err, http.StatusOK)
	game, err := c.GetGameWithResponse(ctx, id, nil, seat0)
	answered(t, "GET game", game.HTTPResponse, game.Body, err, http.StatusOK)
	var after struct {
		Version int `json:"version"`
		State   struct {
			Played []struct {
				Card string `json:"card"`
			} `json:"played"`
		} `json:"state"`
	}
	var played struct {
		Card string `json:"card"`
	}
	_ = json.Unmarshal(move, &played)
	if err := json.Unmarshal(game.Body, &after); err != nil || after.Version != 1 || len(after.State.Played) != 1 || after.State.Played[0].Card != played.Card {
		t.Errorf("after the move %s (%v): %s", move, err, game.Body)
	}
}

// answered fails the test unless the call was answered with status.
func answered(t *testing.T, what string, resp *http.Response, body []byte, err error, status int) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if resp.StatusCode != status {
		t.Fatalf("%s: %d, want %d: %s", what, resp.StatusCode, status, body)
	}
}

// copyModule copies the files git knows of (tracked, and new ones not
// ignored) from root to dir.
func copyModule(t *testing.T, root, dir string) {
	t.Helper()
	for _, f := range strings.Split(sh(t, root, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"), "\x00") {
		if f == "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, f))
		if os.IsNotExist(err) {
			continue // deleted, not committed yet
		}
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// register adds the hidden-hand game to rulesets.All(), in name order as the
// list is, and its import, as a person would.
func register(t *testing.T, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	const after, before = "import (\n", "\t\tluckytreasurehunter.NewRules(),\n"
	if !strings.Contains(src, after) || !strings.Contains(src, before) {
		t.Fatalf("%s: no %q or %q to register the game at:\n%s", file, after, before, src)
	}
	src = strings.Replace(src, after, after+handgameImport, 1)
	src = strings.Replace(src, before, handgameEntry+before, 1)
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	sh(t, filepath.Dir(file), "gofmt", "-w", filepath.Base(file))
}

// isGenerated reports whether the file says, in a comment of its first
// lines, that it is generated (Go's convention, a line "Code generated ...
// DO NOT EDIT."; in YAML after "#", below the "openapi:" line).
func isGenerated(t *testing.T, file string) bool {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(b), "\n", 6)
	for _, l := range lines[:min(5, len(lines))] {
		c, ok := strings.CutPrefix(l, "// ")
		if !ok {
			c, ok = strings.CutPrefix(l, "# ")
		}
		if ok && generatedLine.MatchString(c) {
			return true
		}
	}
	return false
}

var generatedLine = regexp.MustCompile(`^Code generated .* DO NOT EDIT\.$`)

// sh runs a command in dir and returns its output; a failure is fatal,
// with the output.
func sh(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("in %s: %s %s: %v\n%s%s", dir, name, strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return string(out)
}

// serve starts the server bin with a new SQLite database and returns its
// base URL once it is ready; it is stopped when the test ends.
func serve(t *testing.T, bin string) string {
	t.Helper()
	addr, err := proc.FreeAddress()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	logPath := filepath.Join(dir, "server.log")
	srv, err := proc.Start(context.Background(), bin, []string{"serve", "--address", addr, "--database", filepath.Join(dir, "treasury.db")}, addr, "/readyz", logPath)
	if err != nil {
		log, _ := os.ReadFile(logPath)
		t.Fatalf("%v\n%s", err, log)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	return srv.URL
}
