// Command attackrun replays the load-shaped findings of the outside audit
// (issue 12) against a real server it builds and starts on 127.0.0.1, and
// prints what it measured. Every phase is a bounded loop that ends by itself:
//
//   - nested bodies: deeply nested JSON sent as a move to an unknown game, with
//     no credential (the server's CPU time per rejected body, the answers);
//   - stream flood: event streams opened from one address until -streams
//     (how many were accepted before the server refused, whether /healthz
//     still answered, the open-files figure of /metrics);
//   - creation flood: games created from one address (how many were created
//     before 429);
//   - choice changes: one seat replacing its keep during setup (how many
//     changes were accepted);
//   - slow clients: requests whose body is shorter than their Content-Length
//     (what they were answered, and when);
//   - idle flood (issue 20): -idle connections from 127.0.0.1, each asking
//     /healthz once and then idling, while another address (127.0.0.2)
//     checks /healthz and plays games (their latency before and meanwhile).
//
// While the first three run, a player reads its game in a loop; the run
// prints that player's median and p99 latency beside the latency with no
// attack. The server runs with the request rate limits off, as the audit ran
// it, so that each defence is measured on its own.
//
//	go run ./scripts/attackrun                 # the default, about a minute
//	go run ./scripts/attackrun -streams 20000  # the audit's stream flood
//	go run ./scripts/attackrun -only idle      # the idle flood alone
//	go run ./scripts/attackrun -only idle -bin /tmp/old/treasury  # against a server built elsewhere
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
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/treasury-games/treasury/scripts/internal/proc"
)

type config struct {
	bodies   int           // nested bodies of each kind
	depth    int           // their nesting depth
	streams  int           // event streams to try to open
	creates  int           // games to try to create
	changes  int           // keep changes to try
	slow     int           // slow clients (0: skip the phase)
	baseline time.Duration // how long the player's latency is measured without attack
	keep     bool
	idle     int    // idle connections to hold from one address (0: skip the phase)
	only     string // "idle": only the idle flood
	bin      string // a server binary to run instead of building ./cmd/treasury
}

func main() {
	var c config
	flag.IntVar(&c.bodies, "bodies", 10, "nested bodies of each kind to send")
	flag.IntVar(&c.depth, "depth", 9000, "nesting depth of those bodies")
	flag.IntVar(&c.streams, "streams", 3000, "event streams to try to open from one address")
	flag.IntVar(&c.creates, "creates", 2000, "games to try to create from one address")
	flag.IntVar(&c.changes, "changes", 500, "keep changes one seat tries during setup")
	flag.IntVar(&c.slow, "slow", 4, "slow clients (a body shorter than its Content-Length); 0: skip (the phase lasts the server's read timeout)")
	flag.DurationVar(&c.baseline, "baseline", 2*time.Second, "how long the player's latency is measured with no attack")
	flag.BoolVar(&c.keep, "keep", false, "keep the temporary directory (database and server log)")
	flag.IntVar(&c.idle, "idle", 20000, "idle keep-alive connections to open from one address (0: skip the phase)")
	flag.StringVar(&c.only, "only", "", "idle: run only the idle flood")
	flag.StringVar(&c.bin, "bin", "", "run this server binary instead of building ./cmd/treasury (to measure another version)")
	holdAddr := flag.String("hold", "", "(used by the run itself) hold idle connections to this address")
	holdFrom := flag.String("hold-from", "127.0.0.1", "(with -hold) from this local address")
	holdN := flag.Int("hold-n", 0, "(with -hold) this many")
	flag.Parse()
	if *holdAddr != "" {
		holdMain(*holdAddr, *holdFrom, *holdN)
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, c, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "attackrun:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, c config, out io.Writer) error {
	raiseOpenFiles()
	ws, err := proc.NewWorkspace("attackrun", c.keep, out)
	if err != nil {
		return err
	}
	defer ws.Close()
	root, tmp := ws.Root, ws.Dir
	bin := c.bin
	if bin == "" {
		bin = filepath.Join(tmp, "treasury")
		if err := proc.Build(ctx, root, "./cmd/treasury", bin); err != nil {
			return err
		}
	}
	addr, err := proc.FreeAddress()
	if err != nil {
		return err
	}
	env := []string{"TREASURY_RATE_PER_ADDRESS=0", "TREASURY_RATE_PER_CREDENTIAL=0"}
	args := []string{"serve", "--address", addr, "--database", filepath.Join(tmp, "treasury.db"), "--log-level", "error"}
	srv, err := proc.Start(ctx, bin, args, addr, "/healthz", filepath.Join(tmp, "treasury.log"), env...)
	if err != nil {
		return err
	}
	defer srv.Stop()
	a := &attack{base: srv.URL, srv: srv, out: out, hc: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}}
	fmt.Fprintf(out, "attack run %s\nmachine: %s\nserver: rate limits off (TREASURY_RATE_PER_ADDRESS=0, TREASURY_RATE_PER_CREDENTIAL=0)\n",
		time.Now().UTC().Format(time.RFC3339), proc.Machine())

	if c.only == "idle" {
		return a.idleFlood(ctx, c)
	}
	g, err := a.createGame(2)
	if err != nil {
		return fmt.Errorf("create the player's game: %w", err)
	}
	// Created now: the creation flood may use up this address's quota.
	choices, err := a.createGame(2)
	if err != nil {
		return fmt.Errorf("create the game whose keep is changed: %w", err)
	}
	base := a.player(ctx, g, func() { sleepCtx(ctx, c.baseline) })
	fmt.Fprintf(out, "\nplayer alone: GET game p50 %.2f ms, p99 %.2f ms (%d reads)\n", base.p50, base.p99, base.n)

	atLeast := func(f func()) func() {
		return func() {
			start := time.Now()
			f()
			sleepCtx(ctx, c.baseline-time.Since(start))
		}
	}
	lat := a.player(ctx, g, atLeast(func() { a.nested(ctx, c) }))
	fmt.Fprintf(out, "  player meanwhile: p50 %.2f ms, p99 %.2f ms (%d reads)\n", lat.p50, lat.p99, lat.n)

	lat = a.player(ctx, g, atLeast(func() { a.streamFlood(ctx, c, g) }))
	fmt.Fprintf(out, "  player meanwhile: p50 %.2f ms, p99 %.2f ms (%d reads)\n", lat.p50, lat.p99, lat.n)

	lat = a.player(ctx, g, atLeast(func() { a.creationFlood(ctx, c) }))
	fmt.Fprintf(out, "  player meanwhile: p50 %.2f ms, p99 %.2f ms (%d reads)\n", lat.p50, lat.p99, lat.n)

	if err := a.choiceChanges(ctx, c, choices); err != nil {
		return err
	}
	if c.slow > 0 {
		a.slowClients(ctx, c)
	}
	if c.idle > 0 {
		return a.idleFlood(ctx, c)
	}
	return nil
}

// attack is the run's client side.
type attack struct {
	base string
	srv  *proc.Server
	out  io.Writer
	hc   *http.Client
}

// game is a game the run created, with its credentials.
type game struct {
	id    string
	host  string
	seats []string
}

// answer is one HTTP answer, or the error of a request that got none.
type answer struct {
	status int
	ctype  string
	code   string // the problem's code
	body   []byte
	err    error
}

func (a answer) String() string {
	switch {
	case a.err != nil:
		return "no answer (" + shortError(a.err) + ")"
	case a.code != "":
		return fmt.Sprintf("%d %s", a.status, a.code)
	}
	return fmt.Sprintf("%d %s", a.status, a.ctype)
}

func shortError(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		s = s[i+2:]
	}
	return s
}

func (a *attack) do(ctx context.Context, method, path, cred string, body []byte) answer {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return answer{err: err}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if cred != "" {
		req.Header.Set("Authorization", "Bearer "+cred)
	}
	res, err := a.hc.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	ans := answer{status: res.StatusCode, ctype: res.Header.Get("Content-Type"), body: b, err: err}
	if res.StatusCode >= 400 {
		var p struct{ Code string }
		_ = json.Unmarshal(b, &p)
		ans.code = p.Code
	}
	return ans
}

func (a *attack) createGame(players int) (game, error) {
	var ps []string
	for i := range players {
		ps = append(ps, fmt.Sprintf(`{"name":"P%d"}`, i))
	}
	body := `{"ruleset":"silver-and-gold","mode":"digital","players":[` + strings.Join(ps, ",") + `]}`
	ans := a.do(context.Background(), http.MethodPost, "/v1/games", "", []byte(body))
	if ans.err != nil || ans.status != http.StatusCreated {
		return game{}, fmt.Errorf("create a game: %v %s", ans, ans.body)
	}
	var c struct {
		Game        struct{ ID string }
		Credentials struct {
			Host  string
			Seats []string
		}
	}
	if err := json.Unmarshal(ans.body, &c); err != nil {
		return game{}, err
	}
	return game{id: c.Game.ID, host: c.Credentials.Host, seats: c.Credentials.Seats}, nil
}

// latency is what the player measured.
type latency struct {
	p50, p99 float64 // ms
	n        int
}

// player reads game g as seat 0 in a loop while during runs, on a
// connection of its own, and returns its latencies.
func (a *attack) player(ctx context.Context, g game, during func()) latency {
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{}}
	pa := &attack{base: a.base, hc: hc}
	stop := make(chan struct{})
	var ds []time.Duration
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if proc.Over(ctx, stop) {
				return
			}
			start := time.Now()
			ans := pa.do(ctx, http.MethodGet, "/v1/games/"+g.id, g.seats[0], nil)
			if ans.err == nil && ans.status == http.StatusOK {
				ds = append(ds, time.Since(start))
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	during()
	close(stop)
	<-done
	hc.CloseIdleConnections()
	if len(ds) == 0 {
		return latency{}
	}
	slices.Sort(ds)
	q := func(f float64) float64 {
		return float64(ds[min(len(ds)-1, int(f*float64(len(ds))))]) / float64(time.Millisecond)
	}
	return latency{p50: q(0.5), p99: q(0.99), n: len(ds)}
}

// nested sends bodies nested c.depth deep as moves to a game that does not
// exist, without a credential, and reports the server's CPU per body.
func (a *attack) nested(ctx context.Context, c config) {
	objects := []byte(strings.Repeat(`{"a":`, c.depth) + "1" + strings.Repeat("}", c.depth))
	arrays := []byte(`{"type":"cross","seat":0,"card":"grey-01","boxes":` + strings.Repeat("[", c.depth) + strings.Repeat("]", c.depth) + "}")
	fmt.Fprintln(a.out)
	for _, k := range []struct {
		name string
		body []byte
	}{{"nested objects", objects}, {"nested boxes array", arrays}} {
		answers := map[string]int{}
		cpu0, start := a.srv.CPUTime(), time.Now()
		// At least c.bodies, and for at least half the baseline, so that the
		// CPU figure is more than a few clock ticks.
		n := 0
		for ; n < c.bodies || time.Since(start) < c.baseline/2; n++ {
			if ctx.Err() != nil {
				return
			}
			answers[a.do(ctx, http.MethodPost, "/v1/games/no-such-game/moves", "", k.body).String()]++
		}
		cpu := a.srv.CPUTime() - cpu0
		fmt.Fprintf(a.out, "%s (%d levels, %d B) x %d: server CPU %.2f ms per body, %.2f ms per answer; answers: %s\n",
			k.name, c.depth, len(k.body), n, ms(cpu)/float64(n), ms(time.Since(start))/float64(n), counts(answers))
	}
}

// streamFlood opens event streams of game g from this one address until
// c.streams are open or the server refuses; it checks /healthz and /metrics
// with them open, then closes them all.
func (a *attack) streamFlood(ctx context.Context, c config, g game) {
	fmt.Fprintln(a.out)
	var (
		conns    []net.Conn
		answers  = map[string]int{}
		accepted int
	)
	defer func() {
		for _, cn := range conns {
			cn.Close()
		}
	}()
	start := time.Now()
	for i := 0; i < c.streams && ctx.Err() == nil; i++ {
		cn, status, err := openStream(a.srv.Address, g)
		switch {
		case err != nil:
			answers["no answer ("+shortError(err)+")"]++
		case status == http.StatusOK:
			accepted++
			conns = append(conns, cn)
			continue
		default:
			answers[fmt.Sprint(status)]++
			cn.Close()
		}
		if len(answers) > 0 && sum(answers) >= 20 {
			break // refused 20 times: the cap is reached
		}
	}
	took := time.Since(start)
	health := a.do(ctx, http.MethodGet, "/healthz", "", nil)
	hc := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{}}
	fresh := (&attack{base: a.base, hc: hc}).do(ctx, http.MethodGet, "/healthz", "", nil)
	metrics := (&attack{base: a.base, hc: hc}).do(ctx, http.MethodGet, "/metrics", "", nil)
	fmt.Fprintf(a.out, "stream flood: %d of %d streams accepted in %.1fs; then: %s\n", accepted, c.streams, took.Seconds(), counts(answers))
	fmt.Fprintf(a.out, "  with them open: /healthz on a kept connection %v, on a new one %v; /metrics %v; %s %s\n",
		health, fresh, metrics, metricLine(metrics.body, "process_open_fds"), metricLine(metrics.body, "treasury_event_streams"))
}

// openStream opens one event stream on a connection of its own and reads
// its status line.
func openStream(addr string, g game) (net.Conn, int, error) {
	cn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, 0, err
	}
	_ = cn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(cn, "GET /v1/games/%s/events HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", g.id, addr)
	res, err := http.ReadResponse(bufio.NewReader(cn), nil)
	if err != nil {
		cn.Close()
		return nil, 0, err
	}
	_ = cn.SetDeadline(time.Time{})
	return cn, res.StatusCode, nil
}

// creationFlood creates games from this one address until c.creates
// answers came back or the server refused 20 times.
func (a *attack) creationFlood(ctx context.Context, c config) {
	fmt.Fprintln(a.out)
	answers := map[string]int{}
	var created, refused atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := atomic.Int64{}
	start := time.Now()
	for range 4 {
		wg.Go(func() {
			for next.Add(1) <= int64(c.creates) && ctx.Err() == nil && refused.Load() < 20 {
				ans := a.do(ctx, http.MethodPost, "/v1/games", "", []byte(`{"ruleset":"silver-and-gold","mode":"digital","players":[{"name":"Flood"}]}`))
				if ans.status == http.StatusCreated {
					created.Add(1)
				} else {
					refused.Add(1)
				}
				mu.Lock()
				answers[ans.String()]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	fmt.Fprintf(a.out, "creation flood: %d games created from one address in %.1fs; answers: %s\n", created.Load(), time.Since(start).Seconds(), counts(answers))
}

// choiceChanges has seat 0 of a 2-player game replace its keep again and
// again during setup.
func (a *attack) choiceChanges(ctx context.Context, c config, g game) error {
	fmt.Fprintln(a.out)
	ans := a.do(ctx, http.MethodGet, "/v1/games/"+g.id, g.seats[0], nil)
	var v struct {
		State struct {
			Players []struct{ Dealt []string }
		}
	}
	if err := json.Unmarshal(ans.body, &v); err != nil || len(v.State.Players) == 0 || len(v.State.Players[0].Dealt) < 4 {
		return fmt.Errorf("read the dealt cards: %v %s", err, ans.body)
	}
	d := v.State.Players[0].Dealt
	answers := map[string]int{}
	accepted := 0
	for i := 0; i < c.changes && ctx.Err() == nil; i++ {
		pair := d[:2]
		if i%2 == 1 {
			pair = d[2:4]
		}
		body := fmt.Sprintf(`{"type":"keep","seat":0,"cards":[%q,%q]}`, pair[0], pair[1])
		ans := a.do(ctx, http.MethodPost, "/v1/games/"+g.id+"/moves", g.seats[0], []byte(body))
		answers[ans.String()]++
		if ans.status == http.StatusOK {
			accepted++
		} else if answers[ans.String()] >= 20 {
			break
		}
	}
	rec := a.do(ctx, http.MethodGet, "/v1/games/"+g.id+"/record", "", nil)
	fmt.Fprintf(a.out, "choice changes: %d keep changes accepted of %d tried; answers: %s; record %d B\n", accepted, c.changes, counts(answers), len(rec.body))
	return nil
}

// slowClients send a request whose body is shorter than its Content-Length
// and wait for the answer.
func (a *attack) slowClients(ctx context.Context, c config) {
	fmt.Fprintln(a.out)
	type result struct {
		ans  string
		took time.Duration
	}
	results := make([]result, c.slow)
	var wg sync.WaitGroup
	for i := range c.slow {
		wg.Go(func() {
			start := time.Now()
			cn, err := net.DialTimeout("tcp", a.srv.Address, 5*time.Second)
			if err != nil {
				results[i] = result{ans: "no connection"}
				return
			}
			defer cn.Close()
			_ = cn.SetDeadline(time.Now().Add(60 * time.Second))
			fmt.Fprintf(cn, "POST /v1/records/verify HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"format\"", a.srv.Address)
			res, err := http.ReadResponse(bufio.NewReader(cn), nil)
			if err != nil {
				results[i] = result{ans: "no answer (" + shortError(err) + ")", took: time.Since(start)}
				return
			}
			res.Body.Close()
			results[i] = result{ans: fmt.Sprintf("%d %s", res.StatusCode, res.Header.Get("Content-Type")), took: time.Since(start)}
		})
	}
	wg.Wait()
	answers := map[string]int{}
	var longest time.Duration
	for _, r := range results {
		answers[r.ans]++
		longest = max(longest, r.took)
	}
	fmt.Fprintf(a.out, "slow clients (%d, body 10 of 100 bytes): answered after up to %.1fs: %s\n", c.slow, longest.Seconds(), counts(answers))
}

// raiseOpenFiles lifts this process's open-file limit to its hard limit:
// the stream flood holds a connection per stream.
func raiseOpenFiles() {
	var l syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l) == nil && l.Cur < l.Max {
		l.Cur = l.Max
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l)
	}
}

func metricLine(body []byte, name string) string {
	for l := range strings.SplitSeq(string(body), "\n") {
		if strings.HasPrefix(l, name+" ") {
			return l
		}
	}
	return name + " (absent)"
}

func counts(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d x %s", m[k], k)
	}
	return strings.Join(parts, ", ")
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func sleepCtx(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
