package sqlite_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/colorfultreasure"
	"github.com/treasury-games/treasury/domain/luckytreasurehunter"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// benchState stands for a game snapshot of realistic size.
var benchState = bytes.Repeat([]byte("x"), 1024)

// benchDir holds the databases that BenchmarkGame builds once per process;
// TestMain removes it.
var benchDir = sync.OnceValues(func() (string, error) {
	return os.MkdirTemp("", "treasury-sqlite-bench-")
})

func TestMain(m *testing.M) {
	code := m.Run()
	closeBenchStores()
	os.Exit(code)
}

func benchAppend(id string, v int64) domain.Append {
	return domain.Append{
		GameID:        id,
		ExpectVersion: v,
		Move: domain.MoveRecord{
			Seq:   v + 1,
			Actor: domain.Actor{Seat: int(v % 4)},
			Move:  []byte(`{"kind":"cross","card":"grey-04","boxes":[[2,3],[2,4],[3,4]]}`),
			At:    time.Now(),
		},
		State: benchState,
		Phase: "play",
	}
}

func benchGame(id string) (domain.GameRecord, domain.Credentials, domain.CatalogBlob) {
	g, creds, cat := newGame(id)
	g.State = benchState
	return g, creds, cat
}

func openBenchStore(b *testing.B) *sqlite.Store {
	b.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkAppend is one game's moves one after another: every append is its
// own commit, so this is the latency of a durable commit (fsync included).
func BenchmarkAppend(b *testing.B) {
	s := openBenchStore(b)
	ctx := context.Background()
	g, creds, cat := benchGame("g")
	if err := s.CreateGame(ctx, g, creds, cat); err != nil {
		b.Fatal(err)
	}
	var v int64
	for b.Loop() {
		if err := s.Append(ctx, benchAppend("g", v)); err != nil {
			b.Fatal(err)
		}
		v++
	}
}

// BenchmarkAppendKeyed is moves with idempotency keys appended one after
// another (a commit each) to games of 10, 300 and 3,000 moves (imported
// whole, then at most 100 more each): the process's CPU per append, which
// should not grow with the game, as the writer remembers each game's key
// hashes (docs/performance.md).
func BenchmarkAppendKeyed(b *testing.B) {
	for _, n := range []int{10, 300, 3000} {
		b.Run(fmt.Sprintf("moves=%d", n), func(b *testing.B) {
			s := openBenchStore(b)
			ctx := context.Background()
			const perGame = 100
			for i := range b.N/perGame + 1 {
				g, creds, cat := benchGame(fmt.Sprint("g", i))
				g.Version = int64(n)
				e := domain.GameExport{Game: g, Credentials: creds, Catalog: cat}
				for v := range int64(n) {
					e.Moves = append(e.Moves, benchAppend(g.ID, v).Move)
				}
				if err := s.ImportGame(ctx, e); err != nil {
					b.Fatal(err)
				}
			}
			cpu0 := cpuTime()
			b.ResetTimer()
			for i := range b.N {
				id, v := fmt.Sprint("g", i/perGame), int64(n+i%perGame)
				a := benchAppend(id, v)
				a.Idempotency = &domain.IdempotencyRecord{Key: fmt.Sprint("key-", v), Scope: "seat 0", RequestHash: "0123456789abcdef", Status: 200, Response: []byte(`{"seq":1}`)}
				if err := s.Append(ctx, a); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}

// BenchmarkAppendParallel is many games moving at once, each from its own
// goroutine. Appends that queue while a commit is in flight share the next
// commit, so throughput grows with the callers; appends/commit shows the
// average group.
func BenchmarkAppendParallel(b *testing.B) {
	s := openBenchStore(b)
	ctx := context.Background()
	const perProc = 32
	b.SetParallelism(perProc)
	games := perProc * runtime.GOMAXPROCS(0)
	for i := range games {
		g, creds, cat := benchGame(fmt.Sprintf("g%d", i))
		if err := s.CreateGame(ctx, g, creds, cat); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int64
	before := s.Stats()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprintf("g%d", next.Add(1)-1)
		var v int64
		for pb.Next() {
			if err := s.Append(ctx, benchAppend(id, v)); err != nil {
				b.Error(err)
				return
			}
			v++
		}
	})
	b.StopTimer()
	after := s.Stats()
	if n := after.Batches - before.Batches; n > 0 {
		b.ReportMetric(float64(after.Writes-before.Writes)/float64(n), "appends/commit")
	}
}

// BenchmarkGame reads one random game from a database of 100 and of 100,000
// games: a primary-key lookup, so the two should cost about the same.
func BenchmarkGame(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			s, err := benchStore(n)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			for b.Loop() {
				if _, err := s.Game(ctx, gameID(rand.IntN(n))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCountGames counts a database of 100,000 unfinished games by
// ruleset and phase, as the metrics do at each scrape: since migration 0010
// the phase of an unfinished game is in no index, so its row is read.
func BenchmarkCountGames(b *testing.B) {
	s, err := benchStore(100_000)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.CountGames(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

func gameID(i int) string { return fmt.Sprintf("game-%07d", i) }

var (
	benchStoresMu sync.Mutex
	benchStores   = map[int]*sqlite.Store{}
)

// benchStore returns a store holding n games, built once per process.
func benchStore(n int) (*sqlite.Store, error) {
	benchStoresMu.Lock()
	defer benchStoresMu.Unlock()
	if s, ok := benchStores[n]; ok {
		return s, nil
	}
	dir, err := benchDir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, fmt.Sprintf("games-%d.db", n))
	if err := fillGames(path, n); err != nil {
		return nil, err
	}
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		return nil, err
	}
	benchStores[n] = s
	return s, nil
}

func closeBenchStores() {
	benchStoresMu.Lock()
	defer benchStoresMu.Unlock()
	if len(benchStores) == 0 {
		return
	}
	for _, s := range benchStores {
		s.Close()
	}
	if dir, err := benchDir(); err == nil {
		os.RemoveAll(dir)
	}
}

// fillGames creates the schema through the store, then inserts n games
// directly in large unsynchronised transactions: quick, and the rows are the
// same ones CreateGame would write.
func fillGames(path string, n int) error {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, path)
	if err != nil {
		return err
	}
	g, creds, cat := benchGame(gameID(0))
	if err := s.CreateGame(ctx, g, creds, cat); err != nil {
		return err
	}
	if err := s.Close(); err != nil {
		return err
	}
	db, err := sql.Open("sqlite3", path+"?_synchronous=OFF")
	if err != nil {
		return err
	}
	defer db.Close()
	const chunk = 20_000
	created := g.CreatedAt.UTC().Format("2006-01-02T15:04:05.000000000Z")
	for lo := 1; lo < n; lo += chunk {
		tx, err := db.Begin()
		if err != nil {
			return err
		}
		st, err := tx.Prepare(`INSERT INTO games (id, ruleset, mode, catalog_name, catalog_hash,
			created_at, updated_at, version, state, phase, ended) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, 0)`)
		if err != nil {
			tx.Rollback()
			return err
		}
		for i := lo; i < min(lo+chunk, n); i++ {
			if _, err := st.Exec(gameID(i), g.Ruleset, g.Mode, g.CatalogName, g.CatalogHash, created, created, benchState, g.Phase); err != nil {
				tx.Rollback()
				return err
			}
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkAppendBytes is BenchmarkAppendParallel with the rows of a real
// game: a digital game of four of each ruleset (Silver & Gold, whose seats
// mostly move at once, and the turn-based Lucky Treasure Hunter and Colorful
// Treasure), played once through the service (domain/service, real rules,
// each seat picking from its listing as loadrun's clients do) and recorded:
// its creation and its appends, with their states, events and idempotency
// records. 8 or 64 games replay it at once (a goroutine each; one that
// reaches the end starts a new game), and the benchmark reports the bytes
// this process wrote per move (wchar of /proc/self/io: the write-ahead log,
// and the checkpoints into the database file), the figure a disk's write
// budget is spent on, and the moves per commit (appends/commit): more moves
// in a commit share its pages. A turn-based game has one move in flight at a
// time, so its games share fewer commits.
func BenchmarkAppendBytes(b *testing.B) {
	for _, rs := range []domain.Ruleset{silvergold.NewRules(), luckytreasurehunter.NewRules(), colorfultreasure.NewRules()} {
		b.Run(rs.Name(), func(b *testing.B) {
			game, err := recordedGame(rs)
			if err != nil {
				b.Fatal(err)
			}
			// 8 games are loadrun's 32 clients (a table of four each), which
			// share commits 4 at a time in the turn-based games.
			for _, games := range []int{4, 8, 64} {
				b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
					s := openBenchStore(b)
					b.SetParallelism(max(1, games/runtime.GOMAXPROCS(0)))
					appendBytes(b, s, game)
				})
			}
		})
	}
}

func appendBytes(b *testing.B, s *sqlite.Store, game gameRecording) {
	ctx := context.Background()
	var next atomic.Int64
	newGame := func() (string, error) {
		id := fmt.Sprintf("g%d", next.Add(1))
		g := game.game
		g.ID = id
		return id, s.CreateGame(ctx, g, game.creds, game.cat)
	}
	before, err := wchar()
	if err != nil {
		b.Skip("no /proc/self/io:", err)
	}
	stats, cpu0 := s.Stats(), cpuTime()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		id, err := newGame()
		for i := 0; err == nil && pb.Next(); i++ {
			if i == len(game.appends) {
				if id, err = newGame(); err != nil {
					break
				}
				i = 0
			}
			a := game.appends[i]
			a.GameID = id
			err = s.Append(ctx, a)
		}
		if err != nil {
			b.Error(err)
		}
	})
	b.StopTimer()
	after, err := wchar()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(after-before)/float64(b.N), "written-B/op")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
	if now := s.Stats(); now.Batches > stats.Batches {
		b.ReportMetric(float64(now.Writes-stats.Writes)/float64(now.Batches-stats.Batches), "appends/commit")
	}
}

// A game recorded as the service stored it.
type gameRecording struct {
	game    domain.GameRecord
	creds   domain.Credentials
	cat     domain.CatalogBlob
	appends []domain.Append
}

// recorder is a store that keeps a copy of what it is asked to store.
type recorder struct {
	*sqlite.Store
	mu  sync.Mutex
	rec gameRecording
}

func (r *recorder) CreateGame(ctx context.Context, g domain.GameRecord, creds domain.Credentials, cat domain.CatalogBlob) error {
	r.mu.Lock()
	r.rec.game, r.rec.creds, r.rec.cat = g, creds, cat
	r.mu.Unlock()
	return r.Store.CreateGame(ctx, g, creds, cat)
}

func (r *recorder) Append(ctx context.Context, a domain.Append) error { return r.QueueAppend(ctx, a)() }

func (r *recorder) QueueAppend(ctx context.Context, a domain.Append) func() error {
	r.mu.Lock()
	r.rec.appends = append(r.rec.appends, a)
	r.mu.Unlock()
	return r.Store.QueueAppend(ctx, a)
}

var (
	recordingsMu sync.Mutex
	recordings   = map[string]gameRecording{}
)

// recordedGame plays a whole digital game of four of rs through the service,
// each seat sending one of its legal moves (client.Listing.Pick) with an
// Idempotency-Key, and returns what the service stored; once per ruleset
// and process.
func recordedGame(rs domain.Ruleset) (gameRecording, error) {
	recordingsMu.Lock()
	defer recordingsMu.Unlock()
	if rec, ok := recordings[rs.Name()]; ok {
		return rec, nil
	}
	ctx := context.Background()
	dir, err := benchDir()
	if err != nil {
		return gameRecording{}, err
	}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "recorded-"+rs.Name()+".db"))
	if err != nil {
		return gameRecording{}, err
	}
	defer st.Close()
	rec := &recorder{Store: st}
	svc := service.New(rec, rs)
	c, err := svc.Create(ctx, rs.Name(), domain.CreateRequest{Mode: "digital", Players: []string{"Ann", "Ben", "Cid", "Dee"}, Seed: "27"})
	if err != nil {
		return gameRecording{}, err
	}
	id, r := c.Game.ID, rand.New(rand.NewPCG(27, 1))
	for {
		actor, m, version, ok, err := nextMove(ctx, svc, id, r)
		if err != nil {
			return gameRecording{}, err
		}
		if !ok {
			recordings[rs.Name()] = rec.rec
			return rec.rec, nil
		}
		key := fmt.Sprintf("move-%d", version+1)
		if _, err := svc.Play(ctx, id, actor, m, domain.PlayOptions{IdempotencyKey: key, Minimal: true}); err != nil {
			return gameRecording{}, fmt.Errorf("move %s: %w", m, err)
		}
	}
}

// nextMove picks a move owed by the first seat of a 4-player game (or its
// host) that owes one, from the seat's listing (client.Listing.Pick), as
// loadrun's clients do, with the game's version; false when the game has
// ended. A game that awaits no seat's move (it cannot end) is an error.
func nextMove(ctx context.Context, svc *service.Games, id string, r *rand.Rand) (domain.Actor, json.RawMessage, int64, bool, error) {
	for seat := -1; seat < 4; seat++ {
		actor, viewer := domain.Actor{Seat: seat}, domain.SeatViewer(seat)
		if seat < 0 {
			actor, viewer = domain.Actor{Host: true}, domain.HostViewer
		}
		head, raw, err := svc.LegalMoves(ctx, id, viewer, seat)
		if err != nil || head.Ended {
			return domain.Actor{}, nil, 0, false, err
		}
		var l client.Listing
		if err := json.Unmarshal(raw, &l); err != nil {
			return domain.Actor{}, nil, 0, false, err
		}
		l.Version, l.Seat, l.Awaiting = head.Version, seat, head.Awaiting // as the API's answer has them
		if m, _, ok, err := l.Pick(r); err != nil || ok {
			return actor, m, head.Version, ok, err
		}
	}
	return domain.Actor{}, nil, 0, false, fmt.Errorf("game %s awaits no move", id)
}

// cpuTime is the CPU time this process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// wchar reads the bytes this process has written (/proc/self/io).
func wchar() (int64, error) {
	raw, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, err
	}
	for line := range bytes.Lines(raw) {
		if v, ok := bytes.CutPrefix(line, []byte("wchar: ")); ok {
			var n int64
			_, err := fmt.Sscan(string(v), &n)
			return n, err
		}
	}
	return 0, fmt.Errorf("no wchar in /proc/self/io")
}

// BenchmarkAppendBatch is the writer's work for one group commit of moves of
// several games, as under load: 8 games move once each with an idempotency
// key, and the writer, held until all 8 are queued, commits them together.
// Every 100 moves 8 new games take over (their creation is left out of the
// figures). cpu-µs/move is the process's CPU per move (fsync included), the
// figure the load run's "CPU per move" line holds the server to.
func BenchmarkAppendBatch(b *testing.B) { benchmarkAppendBatch(b, 1) }

// BenchmarkAppendBatchRuns is BenchmarkAppendBatch with 4 moves of each game
// in every group, queued one after another as the service queues a game's
// next move before the last one is committed: 32 moves a commit, in 8 runs
// of 4.
func BenchmarkAppendBatchRuns(b *testing.B) { benchmarkAppendBatch(b, 4) }

func benchmarkAppendBatch(b *testing.B, run int) {
	const games, perGame = 8, 100
	held, gate := make(chan struct{}), make(chan struct{})
	s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"),
		sqlite.WithLinger(0, 0), sqlite.WithBeforeBatch(func() { held <- struct{}{}; <-gate }))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	ctx := context.Background()
	ids := make([]string, games)
	var (
		v        int64
		set      int
		setup    time.Duration // CPU of the games' creation, left out
		commits0 int64
	)
	newGames := func() {
		b.StopTimer()
		defer b.StartTimer()
		cpu0 := cpuTime()
		for i := range ids {
			ids[i] = fmt.Sprint("g", set, "-", i)
			g, creds, cat := benchGame(ids[i])
			go func() { <-held; gate <- struct{}{} }() // each CreateGame is a batch of its own
			if err := s.CreateGame(ctx, g, creds, cat); err != nil {
				b.Fatal(err)
			}
		}
		set, v = set+1, 0
		commits0 += games
		setup += cpuTime() - cpu0
	}
	waits := make([]func() error, 0, games*run)
	commits0 += s.Stats().Batches
	cpu0 := cpuTime()
	for b.Loop() {
		if v == 0 || v+int64(run) > perGame {
			newGames()
		}
		waits = waits[:0]
		for i, id := range ids {
			for k := range int64(run) {
				a := benchAppend(id, v+k)
				a.Idempotency = &domain.IdempotencyRecord{Key: fmt.Sprint("key-", v+k), Scope: "seat 0", RequestHash: "0123456789abcdef", Status: 200, Response: []byte(`{"seq":1}`)}
				waits = append(waits, s.QueueAppend(ctx, a))
				if i == 0 && k == 0 {
					<-held // the writer took the first; the others queue behind it
				}
			}
		}
		gate <- struct{}{}
		for _, wait := range waits {
			if err := wait(); err != nil {
				b.Fatal(err)
			}
		}
		v += int64(run)
	}
	cpu := cpuTime() - cpu0 - setup
	if n := s.Stats().Batches - commits0; n != int64(b.N) {
		b.Fatalf("%d commits for %d batches", n, b.N)
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N*games*run), "cpu-µs/move")
}
