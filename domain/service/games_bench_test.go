package service_test

// Growth benchmarks of the service over its real store: what a move, a read
// and memory cost must not grow with the moves already played or the games
// already stored. Run them with
//
//	go test ./domain/service -run '^$' -bench . -benchtime 2s
//
// They are not part of `go test ./...` (no -bench, no run).

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/storage/postgres/pgtest"
	"github.com/treasury-games/treasury/storage/sqlite"
)

var players = []string{"Ann", "Ben", "Cid", "Dee"}

// host makes every move: the host credential acts for every seat and makes
// the table's reports.
var host = domain.Actor{Host: true}

func newService(b testing.TB, path string) (*service.Games, *sqlite.Store) {
	b.Helper()
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return service.New(st, silvergold.NewRules()), st
}

// mirrored is a physical game on the service with a copy of it in memory,
// from which a bot and a simulated table choose its next moves. A physical
// game of four is 165 to 185 moves long.
type mirrored struct {
	id    string
	local *silvergold.Game
	bot   silvergold.Bot
	table *silvergold.Table
	next  [][]byte // moves chosen ahead, in order
}

func newMirrored(ctx context.Context, s *service.Games, seed uint64) (*mirrored, error) {
	c, err := s.Create(ctx, silvergold.RulesetName, domain.CreateRequest{Mode: "physical", Players: players})
	if err != nil {
		return nil, err
	}
	local, err := silvergold.New(silvergold.Standard(), silvergold.Setup{Mode: silvergold.Physical, Players: players})
	if err != nil {
		return nil, err
	}
	return &mirrored{
		id: c.Game.ID, local: local,
		bot:   silvergold.Bot{R: rand.New(rand.NewPCG(seed, 1))},
		table: &silvergold.Table{R: rand.New(rand.NewPCG(seed, 2))},
	}, nil
}

// choose plans up to n more moves on the local copy; fewer when the game
// ends first.
func (m *mirrored) choose(n int) error {
	for range n {
		a, mv, ok := silvergold.Step(m.local, m.bot, m.table)
		if !ok {
			return nil
		}
		body, err := json.Marshal(mv)
		if err != nil {
			return err
		}
		if err := m.local.Play(a, &mv); err != nil {
			return fmt.Errorf("the bot chose an illegal move %s: %w", body, err)
		}
		m.next = append(m.next, body)
	}
	return nil
}

// play submits the next planned move to the service.
func (m *mirrored) play(ctx context.Context, s *service.Games, opt domain.PlayOptions) error {
	body := m.next[0]
	m.next = m.next[1:]
	if _, err := s.Play(ctx, m.id, host, body, opt); err != nil {
		return fmt.Errorf("game %s: move %s: %w", m.id, body, err)
	}
	return nil
}

// prepare returns n games, each played to move `at` through the service with
// `drift` more moves planned. The games are prepared side by side, so that
// their moves share commits.
func prepare(ctx context.Context, s *service.Games, n, at, drift int, seed uint64) ([]*mirrored, error) {
	out := make([]*mirrored, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			m, err := newMirrored(ctx, s, seed+uint64(i))
			if err == nil {
				err = m.choose(at)
			}
			for err == nil && len(m.next) > 0 {
				err = m.play(ctx, s, domain.PlayOptions{})
			}
			if err == nil {
				err = m.choose(drift)
			}
			out[i], errs[i] = m, err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// BenchmarkPlay applies one move to a game at move 5 and to one at move 150:
// the service keeps the game in memory and stores only the new snapshot and
// the move, so both cost the same. Each move is a durable commit of its own
// (one fsync): the figure is a move's latency on an idle server, and
// cpu-µs/op the CPU time the process spent per move (the fsync's wait left
// out). A pool of games at the target move is played round-robin; a game
// that has drifted 15 moves is replaced, untimed.
func BenchmarkPlay(b *testing.B) {
	const pool, drift = 16, 15
	for _, c := range []struct {
		at      int
		minimal bool // Prefer: return=minimal: no view is built
	}{{5, false}, {150, false}, {150, true}} {
		at, name := c.at, fmt.Sprintf("move=%d", c.at)
		if c.minimal {
			name += ",minimal"
		}
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			s, _ := newService(b, filepath.Join(b.TempDir(), "play.db"))
			seed := uint64(at) << 32
			games, err := prepare(ctx, s, pool, at, drift, seed)
			if err != nil {
				b.Fatal(err)
			}
			i := 0
			var cpu time.Duration
			for b.Loop() {
				m := games[i%pool]
				if len(m.next) == 0 {
					b.StopTimer()
					seed += pool
					if games, err = prepare(ctx, s, pool, at, drift, seed); err != nil {
						b.Fatal(err)
					}
					m = games[i%pool]
					b.StartTimer()
				}
				start := processCPU()
				if err := m.play(ctx, s, domain.PlayOptions{Minimal: c.minimal}); err != nil {
					b.Fatal(err)
				}
				cpu += processCPU() - start
				i++
			}
			b.ReportMetric(float64(cpu.Microseconds())/float64(i), "cpu-µs/op")
		})
	}
}

// BenchmarkGameRead reads one random game, as its first seat sees it, from a
// database of 100 and of 100,000 games: a primary-key read, a restore from
// the snapshot and the view. The service's cache is cut to one game so that
// every read goes to the store; games in the cache cost only the view.
func BenchmarkGameRead(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			path, ids, err := readDatabase(n)
			if err != nil {
				b.Fatal(err)
			}
			s, _ := newService(b, path)
			s.SetCacheSize(1)
			ctx := context.Background()
			viewer := domain.Viewer{Seat: 0}
			for b.Loop() {
				if _, err := s.Game(ctx, ids[rand.IntN(len(ids))], viewer); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// processCPU is the CPU time the process has used so far, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

var (
	readDBMu  sync.Mutex
	readDBDir string
	readDBs   = map[int]string{}
)

func TestMain(m *testing.M) {
	pgtest.Main(m, func() {
		if readDBDir != "" {
			os.RemoveAll(readDBDir)
		}
	})
}

// readDatabase returns a database file of n games, built once per process:
// one game played to the middle of its first round through the service,
// then copied under n-1 other ids directly in SQL (the rows are the ones the
// service would have written, and building 100,000 games through it would
// take minutes).
func readDatabase(n int) (string, []string, error) {
	readDBMu.Lock()
	defer readDBMu.Unlock()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("read-%07d", i)
	}
	if path, ok := readDBs[n]; ok {
		return path, ids, nil
	}
	if readDBDir == "" {
		dir, err := os.MkdirTemp("", "treasury-domain-bench-")
		if err != nil {
			return "", nil, err
		}
		readDBDir = dir
	}
	path := filepath.Join(readDBDir, fmt.Sprintf("games-%d.db", n))
	ctx := context.Background()
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		return "", nil, err
	}
	s := service.New(st, silvergold.NewRules())
	m, err := newMirrored(ctx, s, 1)
	if err == nil {
		err = m.choose(20)
	}
	for err == nil && len(m.next) > 0 {
		err = m.play(ctx, s, domain.PlayOptions{})
	}
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", nil, err
	}
	db, err := sql.Open("sqlite3", path+"?_synchronous=OFF")
	if err != nil {
		return "", nil, err
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		return "", nil, err
	}
	defer tx.Rollback()
	ins, err := tx.Prepare(`INSERT INTO games (id, ruleset, mode, catalog_name, catalog_hash, created_at, updated_at, version, state, state_s2, phase, ended, updated_minute)
		SELECT ?, ruleset, mode, catalog_name, catalog_hash, created_at, updated_at, version, state, state_s2, phase, ended, updated_minute FROM games WHERE id = ?`)
	if err != nil {
		return "", nil, err
	}
	for _, id := range ids {
		if _, err := ins.Exec(id, m.id); err != nil {
			return "", nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return "", nil, err
	}
	readDBs[n] = path
	return path, ids, nil
}

// BenchmarkMemory10000Games creates 10,000 four-player games through the
// service, plays the four keeps and the first crossings of each (eight
// moves), and reports the heap in use after a garbage collection: what the
// server holds in memory is bounded by its game cache
// (service.DefaultCachedGames), whatever the number of games stored.
func BenchmarkMemory10000Games(b *testing.B) {
	const games, moves, workers = 10_000, 8, 64
	for b.Loop() {
		ctx := context.Background()
		s, st := newService(b, filepath.Join(b.TempDir(), "memory.db"))
		var before runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)

		var (
			wg   sync.WaitGroup
			mu   sync.Mutex
			next int
			fail error
		)
		for w := range workers {
			wg.Go(func() {
				for {
					mu.Lock()
					i := next
					next++
					stop := i >= games || fail != nil
					mu.Unlock()
					if stop {
						return
					}
					err := playDigital(ctx, s, uint64(w)<<32|uint64(i), moves)
					if err != nil {
						mu.Lock()
						fail = err
						mu.Unlock()
					}
				}
			})
		}
		wg.Wait()
		if fail != nil {
			b.Fatal(fail)
		}
		var after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapInuse)/(1<<20), "heap-MiB")
		b.ReportMetric(float64(int64(after.HeapInuse)-int64(before.HeapInuse))/games, "heap-B/game")
		b.ReportMetric(float64(s.CachedGames()), "cached-games")
		runtime.KeepAlive(st)
	}
}

// playDigital creates a digital game of four and plays its first n moves
// through the service, choosing them on a copy made from the same seed.
func playDigital(ctx context.Context, s *service.Games, seed uint64, n int) error {
	name := fmt.Sprintf("memory-%d", seed)
	c, err := s.Create(ctx, silvergold.RulesetName, domain.CreateRequest{Mode: "digital", Players: players, Seed: name})
	if err != nil {
		return err
	}
	local, err := silvergold.New(silvergold.Standard(), silvergold.Setup{Mode: silvergold.Digital, Players: players, Seed: name})
	if err != nil {
		return err
	}
	bot := silvergold.Bot{R: rand.New(rand.NewPCG(seed, 3))}
	for range n {
		a, mv, ok := silvergold.Step(local, bot, nil)
		if !ok {
			return nil
		}
		body, err := json.Marshal(mv)
		if err != nil {
			return err
		}
		if err := local.Play(a, &mv); err != nil {
			return err
		}
		if _, err := s.Play(ctx, c.Game.ID, host, body, domain.PlayOptions{}); err != nil {
			return fmt.Errorf("game %s: move %s: %w", c.Game.ID, body, err)
		}
	}
	return nil
}
