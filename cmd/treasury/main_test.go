package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// env builds a getenv from pairs.
func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// lines collects what the program writes and announces each line.
type lines struct {
	mu  sync.Mutex
	buf bytes.Buffer
	ch  chan string
}

func newLines() *lines { return &lines{ch: make(chan string, 100)} }

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	for _, s := range strings.SplitAfter(string(p), "\n") {
		if s != "" {
			select {
			case l.ch <- s:
			default:
			}
		}
	}
	return len(p), nil
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// started runs the server in the background and returns its base URL, a
// function that stops it as SIGTERM would and returns what run returned.
func started(t *testing.T, args []string, getenv func(string) string) (string, func() error) {
	t.Helper()
	base, stop, _ := startedLog(t, args, getenv)
	return base, stop
}

// startedLog is started, with what the server writes on stderr (its log).
func startedLog(t *testing.T, args []string, getenv func(string) string) (string, func() error, *lines) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr := newLines(), newLines()
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, getenv, stdout, stderr) }()
	select {
	case line := <-stdout.ch:
		f := strings.Fields(line)
		if !strings.HasPrefix(line, "treasury: listening on http://") || len(f) < 4 {
			t.Fatalf("first line %q", line)
		}
		base := f[3]
		var once sync.Once
		var runErr error
		stop := func() error {
			once.Do(func() {
				cancel()
				select {
				case runErr = <-done:
				case <-time.After(30 * time.Second):
					runErr = fmt.Errorf("run did not return after its context ended")
				}
			})
			return runErr
		}
		t.Cleanup(func() { _ = stop() })
		return base, stop, stderr
	case err := <-done:
		cancel()
		t.Fatalf("run returned before listening: %v\nstderr: %s", err, stderr)
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatalf("the server did not start\nstderr: %s", stderr)
	}
	return "", nil, nil
}

func createGame(t *testing.T, base string) string {
	t.Helper()
	res, err := http.Post(base+"/v1/games", "application/json", strings.NewReader(`{"ruleset":"silver-and-gold","mode":"physical","players":[{"name":"Ann"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var c struct{ Game struct{ ID string } }
	if err := json.NewDecoder(res.Body).Decode(&c); err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %v", res.StatusCode, err)
	}
	return c.Game.ID
}

func TestServe(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	base, stop := started(t, []string{"serve", "--address", "127.0.0.1:0", "--database", db}, env())

	res, err := http.Get(base + "/healthz")
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("healthz: %v %v", res, err)
	}
	res.Body.Close()
	id := createGame(t, base)
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("the database file was not created: %v", err)
	}
	if err := stop(); err != nil {
		t.Fatalf("run returned %v after SIGTERM", err)
	}

	// The same file serves the same game after a restart.
	base, stop = started(t, []string{"serve", "--address", "127.0.0.1:0"}, env("TREASURY_DATABASE", db))
	res, err = http.Get(base + "/v1/games/" + id)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("game after restart: %v %v", res, err)
	}
	res.Body.Close()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// TestGracefulShutdown starts a request, stops the server while the request
// is still arriving, and sees the request answered and stored before the
// program returns.
func TestGracefulShutdown(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	base, stop := started(t, []string{"serve", "--address", "127.0.0.1:0", "--database", db}, env())
	addr := strings.TrimPrefix(base, "http://")

	body := `{"ruleset":"silver-and-gold","mode":"physical","players":[{"name":"Ann"},{"name":"Ben"}]}`
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// With Expect: 100-continue the server says when the handler has begun
	// to read the body: from then on the request is in flight.
	fmt.Fprintf(conn, "POST /v1/games HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", addr, len(body))
	rd := bufio.NewReader(conn)
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(line) == "" {
			break
		}
		if !strings.HasPrefix(line, "HTTP/1.1 100") && strings.HasPrefix(line, "HTTP/") {
			t.Fatalf("want 100 Continue, got %q", line)
		}
	}
	io.WriteString(conn, body[:10])

	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	// Wait until the server no longer accepts connections: shutdown has begun.
	for deadline := time.Now().Add(10 * time.Second); ; {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the server still accepts connections after SIGTERM")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case err := <-stopped:
		t.Fatalf("run returned (%v) while a request was in flight", err)
	default:
	}

	io.WriteString(conn, body[10:])
	res, err := http.ReadResponse(rd, nil)
	if err != nil {
		t.Fatal(err)
	}
	var c struct{ Game struct{ ID string } }
	if err := json.NewDecoder(res.Body).Decode(&c); err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("in-flight create: %d %v", res.StatusCode, err)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("run returned %v", err)
	}

	store, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if _, err := store.Game(context.Background(), c.Game.ID); err != nil {
		t.Fatalf("the game created during shutdown is not stored: %v", err)
	}
}

func TestCatalogFile(t *testing.T) {
	dir := t.TempDir()
	house := bytes.Replace(silvergold.Standard().Content, []byte("\ncatalog standard\n"), []byte("\ncatalog house\n"), 1)
	path := filepath.Join(dir, "house.cards")
	if err := os.WriteFile(path, house, 0o600); err != nil {
		t.Fatal(err)
	}
	base, _ := started(t, []string{"serve"}, env(
		"TREASURY_ADDRESS", "127.0.0.1:0",
		"TREASURY_DATABASE", filepath.Join(dir, "db"),
		"TREASURY_CATALOG", path,
	))
	for _, name := range []string{"house", "standard"} {
		res, err := http.Get(base + "/v1/catalogs/" + name + "?ruleset=silver-and-gold")
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("catalog %s: %v %v", name, res, err)
		}
		res.Body.Close()
	}

	bad := filepath.Join(dir, "bad.cards")
	os.WriteFile(bad, []byte("catalog bad\ncard x grey 8\n  o\n"), 0o600)
	err := run(context.Background(), []string{"serve", "--catalog", bad, "--database", filepath.Join(dir, "db2")}, env(), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("a bad catalog file: %v", err)
	}
}

func TestServeHelp(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"serve", "--help"}, env(), &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, s := range settings {
		if !strings.Contains(out.String(), "--"+s.name) || !strings.Contains(out.String(), s.env) {
			t.Errorf("--help does not list --%s (%s):\n%s", s.name, s.env, out.String())
		}
	}
	for _, want := range []string{"127.0.0.1:8080", "./treasury.db", "SIGTERM"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--help does not mention %s", want)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		name   string
		args   []string
		getenv func(string) string
		want   string
	}{
		{"no command", nil, env(), "name a command"},
		{"unknown command", []string{"play"}, env(), `unknown command "play"`},
		{"unknown flag", []string{"serve", "--port", "80"}, env(), "port"},
		{"stray argument", []string{"serve", "now"}, env(), `"now"`},
		{"bad body limit", []string{"serve", "--body-limit", "lots"}, env(), "lots"},
		{"bad environment", []string{"serve"}, env("TREASURY_SHUTDOWN_TIMEOUT", "soon"), "TREASURY_SHUTDOWN_TIMEOUT"},
		{"bad log level", []string{"serve", "--log-level", "loud"}, env(), "loud"},
		{"bad origin", []string{"serve", "--cors-origins", "https://ok.example,table.example"}, env(), "table.example"},
		{"origin with a path", []string{"serve", "--cors-origins", "https://ok.example/app"}, env(), "/app"},
		{"negative rate", []string{"serve", "--rate-per-address", "-1"}, env(), "-1"},
		{"zero burst", []string{"serve"}, env("TREASURY_BURST_PER_CREDENTIAL", "0"), "TREASURY_BURST_PER_CREDENTIAL"},
		{"linger too long", []string{"serve", "--commit-linger", "1s"}, env(), "1s"},
		{"negative linger", []string{"serve"}, env("TREASURY_COMMIT_LINGER_MAX", "-1ms"), "TREASURY_COMMIT_LINGER_MAX"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := run(context.Background(), c.args, c.getenv, io.Discard, io.Discard)
			var ue usageError
			if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &ue) {
				t.Errorf("run = %v, want a usage error mentioning %s", err, c.want)
			}
		})
	}
}

// TestServeOperations runs the server with every operations setting from the
// environment and finds each in effect: readiness, metrics, docs, CORS for
// the allowed origin only, and the per-address rate limit.
func TestServeOperations(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	base, _ := started(t, []string{"serve", "--address", "127.0.0.1:0", "--database", db}, env(
		"TREASURY_CORS_ORIGINS", "https://table.example, http://localhost:3000",
		"TREASURY_RATE_PER_ADDRESS", "0.01",
		"TREASURY_BURST_PER_ADDRESS", "8",
		"TREASURY_LOG_FORMAT", "json",
	))
	get := func(path string, headers ...string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res
	}
	for _, p := range []string{"/readyz", "/healthz", "/metrics"} {
		if res := get(p); res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d", p, res.StatusCode)
		}
	}
	// A burst of eight requests (probes and scrapes not counted); the ninth
	// is refused.
	codes := []int{}
	for _, p := range []string{"/docs", "/docs/redoc.standalone.js", "/openapi.yaml"} {
		codes = append(codes, get(p).StatusCode)
	}
	if res := get("/openapi.yaml", "Origin", "http://localhost:3000"); res.Header.Get("Access-Control-Allow-Origin") != "http://localhost:3000" {
		t.Errorf("an allowed origin got %v", res.Header)
	}
	if res := get("/openapi.yaml", "Origin", "https://other.example"); res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("another origin got %v", res.Header)
	}
	for range 3 {
		codes = append(codes, get("/v1/catalogs/standard?ruleset=silver-and-gold").StatusCode)
	}
	res := get("/v1/catalogs/standard?ruleset=silver-and-gold")
	if want := []int{200, 200, 200, 200, 200, 200}; fmt.Sprint(codes) != fmt.Sprint(want) || res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Errorf("codes %v then %d (Retry-After %q): want the burst of 8 then 429", codes, res.StatusCode, res.Header.Get("Retry-After"))
	}
	if res := get("/readyz"); res.StatusCode != http.StatusOK {
		t.Errorf("readyz under the limit: %d", res.StatusCode)
	}

	mres, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(mres.Body)
	mres.Body.Close()
	for _, want := range []string{`treasury_rate_limited_total{limit="address"} 1`, `treasury_store_commit_duration_seconds_bucket`, `treasury_http_requests_total{method="GET",route="/docs",status="200"} 1`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// TestShutdownWithStream stops the server while a client follows a game: the
// stream ends at once and the program returns without waiting out the
// shutdown timeout.
func TestShutdownWithStream(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	base, stop := started(t, []string{"serve", "--address", "127.0.0.1:0", "--database", db, "--shutdown-timeout", "60s"}, env())
	id := createGame(t, base)
	res, err := http.Get(base + "/v1/games/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	rd := bufio.NewReader(res.Body)
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(line, "event: snapshot") {
			break
		}
	}
	start := time.Now()
	if err := stop(); err != nil {
		t.Fatalf("run returned %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("shutdown took %v with a stream open", d)
	}
	if _, err := io.ReadAll(rd); err != nil {
		t.Errorf("the stream did not end cleanly: %v", err)
	}
}
