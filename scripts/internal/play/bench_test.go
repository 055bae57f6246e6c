package play

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/scripts/internal/testserver"
)

// benchClientEnv, when set, makes TestMoveHTTPClient the client process of
// BenchmarkMoveHTTP: "url ruleset games seed".
const benchClientEnv = "TREASURY_PLAY_BENCH_CLIENT"

// BenchmarkMoveHTTP plays whole 4-player games of each ruleset through the
// real handler (httptest, a real SQLite file), each seat following the
// event stream with its legal moves and sending its moves with Prefer:
// return=minimal and an Idempotency-Key, as loadrun's clients do (issue
// 27). The clients run in a process of their own (this test binary again,
// TestMoveHTTPClient), so that the figures are the server's alone: the CPU
// time of this process per accepted move (cpu-µs/move) and its allocations
// per move (allocs/move, B/move), its write system calls per move (writes/move:
// the stream's, the answers', SQLite's), and beside them the client process's CPU per move
// (client-cpu-µs/move: what a load run's clients take from the server on a
// shared machine). One op is a whole game. Run it with
//
//	go test ./scripts/internal/play -run '^$' -bench MoveHTTP -benchtime 5x
func BenchmarkMoveHTTP(b *testing.B) {
	for _, rs := range rulesets.All() {
		if rs.Info().MaxPlayers < Seats || rs.Info().MinPlayers > Seats {
			continue
		}
		b.Run(rs.Name(), func(b *testing.B) {
			url := testserver.URL(b, api.Options{}, nil)
			var (
				moves  int64
				cpu    time.Duration
				client time.Duration
				writes int64
				before runtime.MemStats
				after  runtime.MemStats
			)
			runtime.ReadMemStats(&before)
			seed := 0
			for b.Loop() {
				seed++
				start, w0 := processCPU(), writeCalls()
				n, clientCPU, err := playElsewhere(url, rs.Name(), 1, seed)
				if err != nil {
					b.Fatal(err)
				}
				cpu += processCPU() - start
				writes += writeCalls() - w0
				moves += n
				client += clientCPU
			}
			runtime.ReadMemStats(&after)
			if moves == 0 {
				b.Fatal("no move accepted")
			}
			b.ReportMetric(float64(cpu.Microseconds())/float64(moves), "cpu-µs/move")
			b.ReportMetric(float64(client.Microseconds())/float64(moves), "client-cpu-µs/move")
			if writes >= 0 {
				b.ReportMetric(float64(writes)/float64(moves), "writes/move")
			}
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(moves), "allocs/move")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(moves), "B/move")
			b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
		})
	}
}

// playElsewhere plays games whole games of ruleset on the server at url
// from a client process of its own, and returns the moves accepted and the
// CPU time the client process spent playing them.
func playElsewhere(url, ruleset string, games, seed int) (int64, time.Duration, error) {
	cmd := exec.Command(os.Args[0], "-test.run", "^TestMoveHTTPClient$", "-test.v")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %s %d %d", benchClientEnv, url, ruleset, games, seed))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, 0, fmt.Errorf("client process: %v\n%s", err, out)
	}
	var r struct{ Accepted, CPUMicros int64 }
	for _, line := range splitLines(out) {
		if json.Unmarshal(line, &r) == nil && r.Accepted > 0 {
			return r.Accepted, time.Duration(r.CPUMicros) * time.Microsecond, nil
		}
	}
	return 0, 0, fmt.Errorf("client process told no moves:\n%s", out)
}

func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := 0
		for i < len(b) && b[i] != '\n' {
			i++
		}
		out = append(out, b[:i])
		if i < len(b) {
			i++
		}
		b = b[i:]
	}
	return out
}

// TestMoveHTTPClient is BenchmarkMoveHTTP's client process; it does
// nothing in a test run. It plays the games its environment names, one
// after the other, and prints the moves accepted.
func TestMoveHTTPClient(t *testing.T) {
	var (
		url, ruleset string
		games, seed  int
	)
	env := os.Getenv(benchClientEnv)
	if env == "" {
		t.Skip("the client process of BenchmarkMoveHTTP")
	}
	if _, err := fmt.Sscan(env, &url, &ruleset, &games, &seed); err != nil {
		t.Fatalf("%s=%q: %v", benchClientEnv, env, err)
	}
	cl, err := client.NewClientWithResponses(url)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	rec := NewRecorder()
	start := processCPU()
	for i := range games {
		o := Options{Client: cl, Ruleset: ruleset, Idempotency: true, Stream: true}
		if _, err := Play(ctx, o, rec, uint64(seed*1000+i)); err != nil {
			t.Fatal(err)
		}
	}
	spent := processCPU() - start
	s := rec.Summary(time.Second)
	if s.Games != games {
		t.Fatalf("%d of %d games played to their end: %+v", s.Games, games, s)
	}
	fmt.Println(`{"Accepted":` + strconv.FormatInt(s.Accepted, 10) + `,"CPUMicros":` + strconv.FormatInt(spent.Microseconds(), 10) + `}`)
}

// processCPU is the CPU time this process has spent so far, user and
// system (not its children's).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// writeCalls is the number of write system calls this process has made so
// far (Linux's /proc/self/io), or a large negative number where it is not
// known.
func writeCalls() int64 {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return -1 << 40
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "syscw: "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err == nil {
				return n
			}
		}
	}
	return -1 << 40
}
