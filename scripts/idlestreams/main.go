// Command idlestreams measures what idle event streams cost the server: it
// builds the real server (cmd/treasury), starts it on a fresh SQLite file,
// creates -games games, opens -streams event streams spread over them (raw
// connections that read the opening snapshot and then nothing more), and
// reports the server's resident memory (VmRSS of its process) before and
// with the streams open, and per stream. Then it closes everything and
// stops: the run is bounded by -timeout. Run it from the repository:
//
//	go run ./scripts/idlestreams                   # 10,000 streams on 100 games
//	go run ./scripts/idlestreams -streams 2000
//
// The streams come from 127.0.0.1 only; the server's per-address caps are
// lifted for the run. This process holds a file descriptor per stream, as
// does the server: the open-file limit must allow both.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/treasury-games/treasury/scripts/internal/proc"
)

func main() {
	streams := flag.Int("streams", 10000, "idle event streams to open")
	games := flag.Int("games", 100, "games the streams are spread over")
	timeout := flag.Duration("timeout", 5*time.Minute, "end the run after this long, whatever it has reached")
	keep := flag.Bool("keep", false, "keep the temporary directory (database and server log)")
	heap := flag.String("heap-profile", "", "also write the server's heap profile, taken with the streams open, to this file")
	flag.Parse()
	if *streams < 1 || *games < 1 {
		fmt.Fprintln(os.Stderr, "idlestreams: -streams and -games must be positive")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if err := run(ctx, *streams, *games, *keep, *heap); err != nil {
		fmt.Fprintln(os.Stderr, "idlestreams:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, streams, games int, keep bool, heap string) error {
	ws, err := proc.NewWorkspace("idlestreams", keep, os.Stdout)
	if err != nil {
		return err
	}
	defer ws.Close()
	root, tmp := ws.Root, ws.Dir
	bin := filepath.Join(tmp, "treasury")
	// Built with -tags pprof: the runtime's account of its heap and stacks
	// is read from /debug/pprof, on an address of its own.
	pprofAddr, err := proc.FreeAddress()
	if err != nil {
		return err
	}
	env := []string{"TREASURY_PPROF=" + pprofAddr}
	if err := proc.Build(ctx, root, "./cmd/treasury", bin, "pprof"); err != nil {
		return err
	}
	addr, err := proc.FreeAddress()
	if err != nil {
		return err
	}
	env = append(env, "TREASURY_ADDRESS="+addr, "TREASURY_DATABASE="+filepath.Join(tmp, "treasury.db"),
		"TREASURY_MAX_STREAMS=0", "TREASURY_STREAMS_PER_ADDRESS=0", "TREASURY_STREAMS_PER_CREDENTIAL=0",
		"TREASURY_CONNECTIONS_PER_ADDRESS=0", "TREASURY_RATE_PER_ADDRESS=0", "TREASURY_CREATE_RATE_PER_ADDRESS=0",
		"TREASURY_LOG_LEVEL=warn")
	srv, err := proc.Start(ctx, bin, []string{"serve"}, addr, "/healthz", filepath.Join(tmp, "server.log"), env...)
	if err != nil {
		return err
	}
	defer srv.Stop()

	ids := make([]string, games)
	for i := range ids {
		if ids[i], err = create(ctx, srv.URL, i); err != nil {
			return err
		}
	}
	time.Sleep(time.Second) // let the server settle after start-up and creation
	before, err := rss(srv.PID())
	if err != nil {
		return err
	}
	fmt.Printf("server RSS with %d games and no stream: %.1f MB\n", games, mb(before))
	heapBefore, stackBefore, err := memStats(ctx, pprofAddr)
	if err != nil {
		return err
	}

	conns := make([]net.Conn, 0, streams)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	start := time.Now()
	buf := make([]byte, 4096)
	for i := range streams {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%d streams open: %w", i, err)
		}
		c, err := open(ctx, addr, ids[i%games], buf)
		if err != nil {
			return fmt.Errorf("stream %d: %w", i+1, err)
		}
		conns = append(conns, c)
	}
	fmt.Printf("%d streams open in %s\n", streams, time.Since(start).Round(time.Millisecond))
	// The runtime returns memory lazily: read RSS a few times, the highest.
	var with int64
	for range 3 {
		time.Sleep(time.Second)
		r, err := rss(srv.PID())
		if err != nil {
			return err
		}
		with = max(with, r)
	}
	fmt.Printf("server RSS with %d idle streams: %.1f MB (%s for 10,000 streams at this rate; the target is under 1 GB)\n",
		streams, mb(with), fmtBytes(float64(with-before)/float64(streams)*10000+float64(before)))
	fmt.Printf("RSS per idle stream: %.1f KB\n", kb(with-before, streams))
	// RSS leaves out memory allocated and never written (an unused channel
	// buffer, say); the runtime's account, after a collection, has it all.
	heapWith, stackWith, err := memStats(ctx, pprofAddr)
	if err != nil {
		return err
	}
	fmt.Printf("runtime, after a collection: heap in use %.1f -> %.1f MB, goroutine stacks %.1f -> %.1f MB\n",
		mb(heapBefore), mb(heapWith), mb(stackBefore), mb(stackWith))
	fmt.Printf("per idle stream: heap %.1f KB + stack %.1f KB = %.1f KB (the target is under 16 KB)\n",
		kb(heapWith-heapBefore, streams), kb(stackWith-stackBefore, streams), kb(heapWith-heapBefore+stackWith-stackBefore, streams))
	if heap != "" {
		if err := save(ctx, "http://"+pprofAddr+"/debug/pprof/heap?gc=1", heap); err != nil {
			return err
		}
		fmt.Println("heap profile:", heap)
	}
	return nil
}

// create creates a digital Silver & Gold game of two and returns its id.
func create(ctx context.Context, base string, i int) (string, error) {
	body := fmt.Sprintf(`{"ruleset":"silver-and-gold","mode":"digital","players":[{"name":"Ann"},{"name":"Bob"}],"seed":"idle-%d"}`, i)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/games", strings.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusCreated {
		return "", fmt.Errorf("create: %d %s", resp.StatusCode, b)
	}
	var c struct{ Game struct{ ID string } }
	if err := json.Unmarshal(b, &c); err != nil || c.Game.ID == "" {
		return "", fmt.Errorf("create: %v %s", err, b)
	}
	return c.Game.ID, nil
}

// open opens an event stream on a raw connection and reads until the
// snapshot event has come, then leaves the connection idle.
func open(ctx context.Context, addr, id string, buf []byte) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(c, "GET /v1/games/%s/events HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", id, addr)
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	var got []byte
	for !bytes.Contains(got, []byte("event: snapshot")) || !bytes.Contains(got[bytes.Index(got, []byte("event: snapshot")):], []byte("\n\n")) {
		n, err := c.Read(buf)
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("before the snapshot: %w (read %q)", err, got)
		}
		got = append(got, buf[:n]...)
		if len(got) > 1<<20 {
			c.Close()
			return nil, fmt.Errorf("no snapshot in the first MB")
		}
	}
	if !bytes.HasPrefix(got, []byte("HTTP/1.1 200")) {
		c.Close()
		return nil, fmt.Errorf("answered %q", got[:min(len(got), 200)])
	}
	_ = c.SetReadDeadline(time.Time{})
	return c, nil
}

// rss reads the resident set size of process pid, in bytes.
func rss(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }

func fmtBytes(b float64) string { return fmt.Sprintf("%.0f MB", b/(1<<20)) }

// save writes what url answers to the file path.
func save(ctx context.Context, url, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

func kb(b int64, n int) float64 { return float64(b) / float64(n) / 1024 }

// memStats reads the server's heap in use and goroutine stacks after a
// collection, from /debug/pprof/heap?debug=1.
func memStats(ctx context.Context, pprofAddr string) (heap, stack int64, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+pprofAddr+"/debug/pprof/heap?debug=1&gc=1", nil)
	if err != nil {
		return 0, 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, 0, err
	}
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, "# HeapInuse = "); ok {
			heap, err = strconv.ParseInt(v, 10, 64)
		} else if v, ok := strings.CutPrefix(line, "# Stack = "); ok {
			v, _, _ = strings.Cut(v, " ")
			stack, err = strconv.ParseInt(v, 10, 64)
		}
		if err != nil {
			return 0, 0, err
		}
	}
	if heap == 0 || stack == 0 {
		return 0, 0, fmt.Errorf("no HeapInuse or Stack in the heap profile")
	}
	return heap, stack, nil
}
