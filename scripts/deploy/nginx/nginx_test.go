package nginx_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

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

// TestStreamWritesPassedWhole: an event a server writes to its stream at
// once, as large as a Silver & Gold listing (12 KB), reaches the client
// through the shipped configuration as one chunk, and so in one read, not in
// pieces of nginx's 4k default buffer, each a write of nginx, a wakeup and
// reads of the client.
func TestStreamWritesPassedWhole(t *testing.T) {
	event := "event: legal_moves\ndata: " + strings.Repeat("x", 12<<10) + "\n\n"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	// The server writes its answer's head and the event's chunk in one
	// write, as Treasury's streams write each step's events.
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				req, err := http.ReadRequest(r)
				if err != nil {
					return
				}
				if req.URL.Path == "/healthz" {
					fmt.Fprint(c, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
					return
				}
				fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Accel-Buffering: no\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n", len(event), event)
				_, _ = io.Copy(io.Discard, r) // held open, as a stream is
			}()
		}
	}()
	p := start(t, []string{ln.Addr().String()})
	c, err := net.Dial("tcp", strings.TrimPrefix(p.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.SetDeadline(time.Now().Add(20 * time.Second)); err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(c, "GET /v1/games/g1/events HTTP/1.1\r\nHost: treasury\r\n\r\n")
	r := bufio.NewReader(c)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || len(resp.TransferEncoding) == 0 {
		t.Fatalf("the stream through nginx: %d, transfer encoding %v", resp.StatusCode, resp.TransferEncoding)
	}
	// The chunks as nginx framed them, until the event is whole.
	var sizes []int64
	var got int64
	for got < int64(len(event)) {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("after chunks of %v bytes: %v", sizes, err)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(line), 16, 64)
		if err != nil || n == 0 {
			t.Fatalf("chunk size line %q after chunks of %v bytes", line, sizes)
		}
		if _, err := io.CopyN(io.Discard, r, n+2); err != nil {
			t.Fatal(err)
		}
		sizes, got = append(sizes, n), got+n
	}
	if len(sizes) != 1 {
		t.Errorf("an event of %d bytes, written at once, reached the client in chunks of %v bytes, want one", len(event), sizes)
	}
}
