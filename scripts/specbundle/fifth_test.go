package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
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
	sh(t, dir, "go", "build", "-o", bin, "./cmd/treasury")
	base := serve(t, bin)
	var list struct {
		Rulesets []struct{ Name string } `json:"rulesets"`
	}
	call(t, "GET", base+"/v1/rulesets", "", nil, http.StatusOK, &list)
	if !strings.Contains(fmt.Sprint(list.Rulesets), handgameName) {
		t.Errorf("GET /v1/rulesets does not list %s: %v", handgameName, list.Rulesets)
	}
	spec := call(t, "GET", base+"/openapi.yaml", "", nil, http.StatusOK, nil)
	if !bytes.Contains(spec, []byte("\n    HandGamePlay:\n")) {
		t.Error("the served openapi.yaml has no HandGamePlay schema")
	}
	var created struct {
		Game struct {
			ID      string `json:"id"`
			Ruleset string `json:"ruleset"`
		} `json:"game"`
		Credentials struct {
			Seats []string `json:"seats"`
		} `json:"credentials"`
	}
	call(t, "POST", base+"/v1/games", "", map[string]any{"ruleset": handgameName, "mode": "digital",
		"players": []map[string]string{{"name": "Ann"}, {"name": "Bob"}}}, http.StatusCreated, &created)
	if created.Game.Ruleset != handgameName || len(created.Credentials.Seats) != 2 {
		t.Fatalf("created %+v", created)
	}
	game, seat0 := base+"/v1/games/"+created.Game.ID, created.Credentials.Seats[0]
	var legal struct {
		Moves []struct {
			Move json.RawMessage `json:"move"`
		} `json:"moves"`
	}
	call(t, "GET", game+"/legal-moves", seat0, nil, http.StatusOK, &legal)
	if len(legal.Moves) == 0 {
		t.Fatal("seat 0, on turn, has no legal move")
	}
	call(t, "POST", game+"/moves", seat0, legal.Moves[0].Move, http.StatusOK, nil)
	var after struct {
		Version int `json:"version"`
		State   struct {
			Played []struct {
				Seat int    `json:"seat"`
				Card string `json:"card"`
			} `json:"played"`
		} `json:"state"`
	}
	call(t, "GET", game, seat0, nil, http.StatusOK, &after)
	var played struct {
		Card string `json:"card"`
	}
	_ = json.Unmarshal(legal.Moves[0].Move, &played)
	if after.Version != 1 || len(after.State.Played) != 1 || after.State.Played[0].Card != played.Card {
		t.Errorf("after the move %s: version %d, played %+v", legal.Moves[0].Move, after.Version, after.State.Played)
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

// isGenerated reports whether the file says, in the comments it opens with,
// that it is generated (Go's convention, a line "Code generated ... DO NOT
// EDIT."; in YAML after "#").
func isGenerated(t *testing.T, file string) bool {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		c, ok := strings.CutPrefix(l, "// ")
		if !ok {
			c, ok = strings.CutPrefix(l, "# ")
		}
		if !ok && strings.TrimSpace(l) != "" && l != "//" && l != "#" {
			return false // the comments are over
		}
		if generatedLine.MatchString(c) {
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

// syncBuffer collects a process's output while it runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serve starts the server bin on a free port with a new SQLite database and
// returns its base URL once it is ready; it is stopped when the test ends.
func serve(t *testing.T, bin string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	var logs syncBuffer
	cmd := exec.Command(bin, "serve", "--address", addr, "--database", filepath.Join(t.TempDir(), "treasury.db"))
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	base := "http://" + addr
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("the server exited: %v\n%s", err, logs.String())
		default:
		}
		resp, err := http.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server was not ready within a minute (last: %v)\n%s", err, logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// call sends a request (body as JSON, credential as Bearer) and checks its
// status; it decodes the answer into out, and returns it.
func call(t *testing.T, method, url, credential string, body any, status int, out any) []byte {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if credential != "" {
		req.Header.Set("Authorization", "Bearer "+credential)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != status {
		t.Fatalf("%s %s: %d, want %d: %s", method, url, resp.StatusCode, status, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, url, err, b)
		}
	}
	return b
}
