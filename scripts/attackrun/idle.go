package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/scripts/internal/play"
)

// The idle flood (issue 20): connections from one address, each asking for
// /healthz once and then idling, as many as -idle; while they are held,
// another address checks /healthz and plays games, and the run reports how
// long those took. A process may hold only so many connections (its own
// open-file limit), so the flood is spread over helper processes, each this
// program run with -hold, holding up to holdEach.
const holdEach = 8000

// holdLimit is how long a helper holds its connections at most if the run
// forgets it: every phase ends by itself.
const holdLimit = 10 * time.Minute

// held is what one helper reports: the outcomes of its connections.
type held struct {
	Outcomes map[string]int `json:"outcomes"`
	Seconds  float64        `json:"seconds"`
}

// hold opens n connections to addr from the local address from, each asking
// for /healthz once, and keeps those answered 200 open. It returns the
// connections kept and what each attempt came to.
func hold(ctx context.Context, addr, from string, n int) ([]net.Conn, map[string]int) {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 3 * time.Second}
	var (
		mu       sync.Mutex
		kept     []net.Conn
		outcomes = map[string]int{}
		next     atomic.Int64
		wg       sync.WaitGroup
	)
	for range 32 {
		wg.Go(func() {
			for next.Add(1) <= int64(n) && ctx.Err() == nil {
				c, outcome := idleOne(ctx, d, addr)
				mu.Lock()
				outcomes[outcome]++
				if c != nil {
					kept = append(kept, c)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return kept, outcomes
}

// idleOne opens one connection and asks for /healthz on it; the connection
// is returned open when it was answered 200.
func idleOne(ctx context.Context, d *net.Dialer, addr string) (net.Conn, string) {
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, "no connection (" + shortError(err) + ")"
	}
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: treasury\r\n\r\n"); err != nil {
		c.Close()
		return nil, "closed"
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		c.Close()
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			return nil, "no answer in 3 s"
		}
		return nil, "closed"
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		c.Close()
		return nil, fmt.Sprint(res.StatusCode)
	}
	_ = c.SetDeadline(time.Time{})
	return c, "200 kept"
}

// holdMain is this program run with -hold: it holds its connections, prints
// what they came to as one JSON line, and closes them when its standard
// input ends (or after holdLimit).
func holdMain(addr, from string, n int) {
	raiseOpenFiles()
	start := time.Now()
	kept, outcomes := hold(context.Background(), addr, from, n)
	out, _ := json.Marshal(held{Outcomes: outcomes, Seconds: time.Since(start).Seconds()})
	fmt.Println(string(out))
	done := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); close(done) }()
	select {
	case <-done:
	case <-time.After(holdLimit):
	}
	for _, c := range kept {
		c.Close()
	}
}

// measured is what the other address saw.
type measured struct {
	health []time.Duration
	failed map[string]int
	moves  play.Summary
}

func (m measured) String() string {
	slices.Sort(m.health)
	q := func(f float64) float64 {
		if len(m.health) == 0 {
			return 0
		}
		return ms(m.health[min(len(m.health)-1, int(f*float64(len(m.health))))])
	}
	return fmt.Sprintf("/healthz on a new connection p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d answered 200; failed: %s); moves p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d answered, %d accepted; errors: %s)",
		q(0.5), q(0.99), q(1), len(m.health), counts(m.failed), m.moves.P50, m.moves.P99, m.moves.Max, m.moves.Submissions, m.moves.Accepted, counts(m.moves.Errors))
}

// otherAddress checks /healthz on a new connection every 20 ms and plays
// 4-seat games, from the local address from, for d.
func (a *attack) otherAddress(ctx context.Context, from string, d time.Duration) measured {
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	tr := &http.Transport{DialContext: dialer.DialContext, MaxIdleConnsPerHost: 16}
	defer tr.CloseIdleConnections()
	fresh := &http.Transport{DialContext: dialer.DialContext, DisableKeepAlives: true}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	m := measured{failed: map[string]int{}}
	var wg sync.WaitGroup
	wg.Go(func() {
		hc := &http.Client{Timeout: 5 * time.Second, Transport: fresh}
		for ctx.Err() == nil {
			start := time.Now()
			req, _ := http.NewRequestWithContext(context.WithoutCancel(ctx), http.MethodGet, a.base+"/healthz", nil)
			res, err := hc.Do(req)
			switch {
			case err != nil:
				m.failed["no answer ("+shortError(err)+")"]++
			case res.StatusCode != http.StatusOK:
				m.failed[fmt.Sprint(res.StatusCode)]++
				res.Body.Close()
			default:
				m.health = append(m.health, time.Since(start))
				res.Body.Close()
			}
			sleepCtx(ctx, 20*time.Millisecond)
		}
	})
	rec := play.NewRecorder()
	start := time.Now()
	wg.Go(func() {
		cl, err := client.NewClientWithResponses(a.base, client.WithHTTPClient(&http.Client{Timeout: 5 * time.Second, Transport: tr}))
		if err != nil {
			return
		}
		stop := make(chan struct{})
		context.AfterFunc(ctx, func() { close(stop) })
		// At most 12 games (about 1,800 moves): the address's quota of new
		// games (bursts of 30) lasts the whole run.
		for seed := uint64(1); seed <= 12 && ctx.Err() == nil; seed++ {
			if _, err := play.Play(context.WithoutCancel(ctx), play.Options{Client: cl, Stop: stop, Poll: 50 * time.Millisecond}, rec, seed); err != nil {
				e := shortError(err)
				if i := strings.IndexAny(e, "\n{"); i >= 0 {
					e = e[:i]
				}
				rec.Error("game: " + strings.TrimSpace(e))
				sleepCtx(ctx, 100*time.Millisecond)
			}
		}
	})
	wg.Wait()
	m.moves = rec.Summary(time.Since(start))
	return m
}

// idleFlood holds c.idle idle connections from 127.0.0.1 and measures
// another address (127.0.0.2) before and while they are held.
func (a *attack) idleFlood(ctx context.Context, c config) error {
	fmt.Fprintln(a.out)
	before := a.otherAddress(ctx, "127.0.0.2", c.baseline)
	fmt.Fprintf(a.out, "idle flood: another address (127.0.0.2) before it: %v\n", before)

	start := time.Now()
	outcomes := map[string]int{}
	var stops []func()
	defer func() {
		for _, s := range stops {
			s()
		}
	}()
	if c.idle <= holdEach/4 {
		kept, o := hold(ctx, a.srv.Address, "127.0.0.1", c.idle)
		stops = append(stops, func() {
			for _, k := range kept {
				k.Close()
			}
		})
		outcomes = o
	} else {
		self, err := os.Executable()
		if err != nil {
			return err
		}
		for left := c.idle; left > 0; left -= holdEach {
			n := min(left, holdEach)
			cmd := exec.CommandContext(ctx, self, "-hold", a.srv.Address, "-hold-from", "127.0.0.1", "-hold-n", fmt.Sprint(n))
			stdin, err := cmd.StdinPipe()
			if err != nil {
				return err
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				return err
			}
			cmd.Stderr = os.Stderr
			if err := cmd.Start(); err != nil {
				return err
			}
			stops = append(stops, func() { stdin.Close(); _ = cmd.Wait() })
			line, err := bufio.NewReader(stdout).ReadString('\n')
			var h held
			if err != nil || json.Unmarshal([]byte(line), &h) != nil {
				return fmt.Errorf("a helper holding connections said %q: %v", strings.TrimSpace(line), err)
			}
			for k, v := range h.Outcomes {
				outcomes[k] += v
			}
		}
	}
	fmt.Fprintf(a.out, "idle flood: %d connections from 127.0.0.1 in %.1fs, each asking /healthz once: %s\n", c.idle, time.Since(start).Seconds(), counts(outcomes))
	during := a.otherAddress(ctx, "127.0.0.2", c.baseline)
	fmt.Fprintf(a.out, "  with them held, another address (127.0.0.2): %v\n", during)
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}, Timeout: 5 * time.Second}
	hc := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DialContext: dialer.DialContext, DisableKeepAlives: true}}
	metrics := (&attack{base: a.base, hc: hc}).do(ctx, http.MethodGet, "/metrics", "", nil)
	fmt.Fprintf(a.out, "  /metrics from 127.0.0.2: %v; %s; %s; %s; %s\n", metrics, metricLine(metrics.body, "process_open_fds"), metricLine(metrics.body, "process_max_fds"),
		metricLine(metrics.body, "treasury_connections"), metricLine(metrics.body, `treasury_connections_refused_total{limit="address"}`))
	return nil
}
