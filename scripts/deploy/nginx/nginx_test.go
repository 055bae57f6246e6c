package nginx_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/scripts/deploy/nginx"
)

// start runs the shipped configuration in front of backends; skipped without
// nginx (failed when CI=true).
func start(t *testing.T, backends []string) *nginx.Proxy {
	t.Helper()
	if _, err := nginx.Find(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	p, err := nginx.Start(t.Context(), t.TempDir(), backends)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	return p
}

// TestRoutedByGame: through the shipped configuration, every request about
// one game (moves, reads, its event stream) reaches the same server, whatever
// else is in the path; the games spread over the servers; requests about no
// game spread too.
func TestRoutedByGame(t *testing.T) {
	var backends []string
	for i := range 3 {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, "server %d", i)
		}))
		t.Cleanup(s.Close)
		backends = append(backends, strings.TrimPrefix(s.URL, "http://"))
	}
	p := start(t, backends)
	get := func(path string) string {
		t.Helper()
		resp, err := http.Get(p.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
		}
		return string(b)
	}
	used := map[string]bool{}
	for g := range 30 {
		id := fmt.Sprintf("game-%02d", g)
		first := get("/v1/games/" + id)
		for _, path := range []string{"/moves", "/events?legal_moves=true", "/legal-moves", "/record", ""} {
			if got := get("/v1/games/" + id + path); got != first {
				t.Fatalf("game %s: %s reached %s, the game itself %s", id, path, got, first)
			}
		}
		used[first] = true
	}
	if len(used) < 2 {
		t.Errorf("30 games all went to %v", used)
	}
	others := map[string]bool{}
	for range 30 {
		others[get("/healthz")] = true
	}
	if len(others) < 2 {
		t.Errorf("30 requests about no game all went to %v", others)
	}
}

func TestRender(t *testing.T) {
	conf, err := nginx.Render([]string{"10.0.0.1:80", "10.0.0.2:80"}, "0.0.0.0:8080")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\tserver 10.0.0.1:80;\n\tserver 10.0.0.2:80;\n", "\tlisten 0.0.0.0:8080;", "hash $treasury_game consistent;"} {
		if !strings.Contains(conf, want) {
			t.Errorf("the configuration lacks %q:\n%s", want, conf)
		}
	}
	if strings.Contains(conf, "127.0.0.1:8081") {
		t.Error("the shipped example servers are still there")
	}
}
