package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/storage/postgres/pgtest"
)

// TestMain stops the PostgreSQL cluster the tests may have started.
func TestMain(m *testing.M) { pgtest.Main(m) }

// keyedMove is a move played with an Idempotency-Key, and what it got.
type keyedMove struct {
	actor domain.Actor
	body  []byte
	key   string
	seq   int64
}

// playedGame is a game played through the service, with its credentials.
type playedGame struct {
	created domain.Created
	ended   bool
	keyed   []keyedMove
}

// playGames creates games in a new SQLite file through the service and plays
// them with the bot: two to the end (digital and physical), one halfway, one
// not at all. Every fifth move is played with an Idempotency-Key.
func playGames(t *testing.T, path string) []playedGame {
	t.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, path, storeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	games := service.New(st, silvergold.NewRules())
	var out []playedGame
	for i, g := range []struct {
		mode    silvergold.Mode
		players []string
		moves   int // -1: to the end
	}{
		{silvergold.Digital, []string{"Ann", "Ben"}, -1},
		{silvergold.Physical, []string{"Cat", "Dan", "Eve"}, -1},
		{silvergold.Digital, []string{"Fay", "Gus", "Hal", "Ivy"}, 25},
		{silvergold.Digital, []string{"Joe"}, 0},
	} {
		setup := silvergold.Setup{Mode: g.mode, Players: g.players}
		if g.mode == silvergold.Digital {
			setup.Seed = fmt.Sprintf("copy-seed-%d", i)
		}
		c, err := games.Create(ctx, silvergold.RulesetName, domain.CreateRequest{Mode: string(g.mode), Players: setup.Players, Seed: setup.Seed})
		if err != nil {
			t.Fatal(err)
		}
		pg := playedGame{created: c}
		mirror, err := silvergold.New(silvergold.Standard(), setup)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(i), 7))
		bot, table := silvergold.Bot{R: r}, &silvergold.Table{R: r}
		for n := 0; g.moves < 0 || n < g.moves; n++ {
			actor, m, ok := silvergold.Step(mirror, bot, table)
			if !ok {
				pg.ended = true
				break
			}
			if n > 3000 {
				t.Fatal("the game did not end")
			}
			body, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			var opt domain.PlayOptions
			if n%5 == 0 {
				opt.IdempotencyKey = fmt.Sprintf("key-%d-%d", i, n)
			}
			p, err := games.Play(ctx, c.Game.ID, actor, body, opt)
			if err != nil {
				t.Fatalf("game %d move %d %s: %v", i, n+1, body, err)
			}
			if opt.IdempotencyKey != "" {
				pg.keyed = append(pg.keyed, keyedMove{actor: actor, body: body, key: opt.IdempotencyKey, seq: p.Seq})
			}
			if err := mirror.Play(actor, &m); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, pg)
	}
	if !out[0].ended || !out[1].ended || out[2].ended {
		t.Fatal("the games did not end as planned")
	}
	return out
}

// copyRun runs treasury copy and returns its exit status and output.
func copyRun(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	err := run(context.Background(), append([]string{"copy"}, args...), env(), &out, &out)
	if err != nil {
		out.WriteString("treasury: " + err.Error() + "\n")
		return exitStatus(err), out.String()
	}
	return 0, out.String()
}

// checkCopied compares every game of played in the store at from with its
// copy in the store at to, as a client would see them.
func checkCopied(t *testing.T, from, to string, played []playedGame) {
	t.Helper()
	ctx := context.Background()
	rules := silvergold.NewRules()
	src, err := openStore(ctx, from, storeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := openStore(ctx, to, storeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	srcGames, dstGames := service.New(src, rules), service.New(dst, rules)
	for _, p := range played {
		id := p.created.Game.ID
		t.Run(id, func(t *testing.T) {
			want, err := src.Game(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			got, err := dst.Game(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(want, got) {
				t.Errorf("snapshot:\n got %+v\nwant %+v", got, want)
			}
			wantMoves, err := src.Moves(ctx, id, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			gotMoves, err := dst.Moves(ctx, id, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(gotMoves) != int(want.Version) || !reflect.DeepEqual(wantMoves, gotMoves) {
				t.Errorf("moves: %d copied of %d, or they differ", len(gotMoves), len(wantMoves))
			}

			// Every credential still stands for its seat, and nothing else does.
			if a, err := dstGames.Authenticate(ctx, id, p.created.Host); err != nil || !a.Host {
				t.Errorf("host credential: %+v %v", a, err)
			}
			for seat, secret := range p.created.Seat {
				if a, err := dstGames.Authenticate(ctx, id, secret); err != nil || a != (domain.Actor{Seat: seat}) {
					t.Errorf("seat %d credential: %+v %v", seat, a, err)
				}
			}
			if _, err := dstGames.Authenticate(ctx, id, "not-a-credential"); domain.ErrorCode(err) != domain.Unauthorized {
				t.Errorf("a wrong credential: %v", err)
			}

			// The record is the same, and a finished game replays to the stored state.
			wantRec, err := srcGames.Record(ctx, id, domain.Public)
			if err != nil {
				t.Fatal(err)
			}
			gotRec, err := dstGames.Record(ctx, id, domain.Public)
			if err != nil {
				t.Fatal(err)
			}
			wj, _ := json.Marshal(wantRec)
			gj, _ := json.Marshal(gotRec)
			if !bytes.Equal(wj, gj) {
				t.Errorf("the record differs:\n got %s\nwant %s", gj, wj)
			}
			if p.ended {
				v := domain.VerifyRecord([]domain.Ruleset{rules}, gotRec)
				if !v.Valid || v.Moves != int(got.Version) {
					t.Fatalf("the copied game does not replay: %+v", v)
				}
				score, err := dstGames.Score(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(v.Score, score) {
					t.Errorf("replayed score %s, stored game's %s", v.Score, score)
				}
			}

			// A retry of a keyed move gets the first answer and applies nothing.
			for _, k := range p.keyed {
				r, err := dstGames.Play(ctx, id, k.actor, k.body, domain.PlayOptions{IdempotencyKey: k.key})
				if err != nil || !r.Replayed || r.Seq != k.seq {
					t.Fatalf("retry of move %d with key %s: %+v %v", k.seq, k.key, r, err)
				}
			}
			if after, err := dst.Game(ctx, id); err != nil || after.Version != want.Version {
				t.Errorf("after the retries: version %d, want %d (%v)", after.Version, want.Version, err)
			}
		})
	}
}

func TestCopy(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "games.db")
	played := playGames(t, file)
	url := pgtest.Database(t)

	code, out := copyRun(t, "--from", file, "--to", url)
	if code != 0 || !strings.Contains(out, "copied 4 games") {
		t.Fatalf("SQLite to PostgreSQL: exit %d\n%s", code, out)
	}
	checkCopied(t, file, url, played)

	back := filepath.Join(dir, "back.db")
	code, out = copyRun(t, "--from", url, "--to", back)
	if code != 0 || !strings.Contains(out, "copied 4 games") {
		t.Fatalf("PostgreSQL to SQLite: exit %d\n%s", code, out)
	}
	checkCopied(t, file, back, played)

	t.Run("a target that holds one of the games is refused, naming it, and nothing is copied", func(t *testing.T) {
		ctx := context.Background()
		partial := filepath.Join(t.TempDir(), "partial.db")
		src, err := openStore(ctx, file, storeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		dst, err := openStore(ctx, partial, storeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ids, err := allGameIDs(ctx, src)
		if err != nil {
			t.Fatal(err)
		}
		e, err := src.ExportGame(ctx, ids[2])
		if err != nil {
			t.Fatal(err)
		}
		if err := dst.ImportGame(ctx, e); err != nil {
			t.Fatal(err)
		}
		src.Close()
		dst.Close()

		code, out := copyRun(t, "--from", file, "--to", partial)
		if code != 1 || !strings.Contains(out, "game "+ids[2]+" is already in the target; nothing was copied") {
			t.Fatalf("exit %d\n%s", code, out)
		}
		dst, err = openStore(ctx, partial, storeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer dst.Close()
		if have, err := allGameIDs(ctx, dst); err != nil || len(have) != 1 {
			t.Fatalf("the target holds %v (%v), want only %s", have, err, ids[2])
		}
	})

	t.Run("the copies play on", func(t *testing.T) {
		ctx := context.Background()
		for _, target := range []string{url, back} {
			st, err := openStore(ctx, target, storeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			games := service.New(st, silvergold.NewRules())
			// The untouched game of one: seat 0 keeps two of the cards it was dealt.
			p := played[3]
			_, moves, err := games.LegalMoves(ctx, p.created.Game.ID, domain.SeatViewer(0), 0)
			if err != nil {
				t.Fatal(err)
			}
			var legal struct {
				KeepFrom []string `json:"keep_from"`
			}
			if err := json.Unmarshal(moves, &legal); err != nil || len(legal.KeepFrom) < 2 {
				t.Fatalf("legal moves %s: %v", moves, err)
			}
			body := fmt.Sprintf(`{"type":"keep","seat":0,"cards":[%q,%q]}`, legal.KeepFrom[0], legal.KeepFrom[1])
			r, err := games.Play(ctx, p.created.Game.ID, domain.Actor{Seat: 0}, []byte(body), domain.PlayOptions{})
			if err != nil || r.Seq != 1 {
				t.Fatalf("%s: %+v %v", describeDatabase(target), r, err)
			}
			st.Close()
		}
	})
}

func TestCopyUsage(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	for _, args := range [][]string{
		{},
		{"--from", filepath.Join(dir, "a.db")},
		{"--to", filepath.Join(dir, "b.db")},
		{"--from", missing, "--to", filepath.Join(dir, "b.db")},
		{"--from", "x.db", "--to", "x.db"},
		{"--from", "a.db", "--to", "b.db", "extra"},
	} {
		if code, out := copyRun(t, args...); code != 2 {
			t.Errorf("copy %v: exit %d, want 2\n%s", args, code, out)
		}
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing --from file was created: %v", err)
	}
	if code, out := copyRun(t, "--help"); code != 0 || !strings.Contains(out, "Usage: treasury copy --from DATABASE --to DATABASE") {
		t.Errorf("--help: exit %d\n%s", code, out)
	}
}

func TestServeOnPostgres(t *testing.T) {
	url := pgtest.Database(t)
	base, stop := started(t, []string{"serve", "--address", "127.0.0.1:0", "--database", url}, env())
	id := createGame(t, base)
	for _, path := range []string{"/readyz", "/v1/games/" + id} {
		res, err := http.Get(base + path)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %v %v", path, res, err)
		}
		res.Body.Close()
	}
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	var metrics bytes.Buffer
	metrics.ReadFrom(res.Body)
	res.Body.Close()
	// The physical game waits in its setup phase (other labels, such as the ruleset, may follow).
	gameCounted := regexp.MustCompile(`(?m)^treasury_games\{phase="setup"[^}]*\} 1$`)
	// At least the game's creation was committed (the sweep of idle games commits too).
	committed := regexp.MustCompile(`(?m)^treasury_store_commit_duration_seconds_count [1-9]`)
	if !gameCounted.MatchString(metrics.String()) || !committed.MatchString(metrics.String()) {
		t.Errorf("metrics lack the game or the commit:\n%s", grepLines(metrics.String(), "treasury_games", "treasury_store_commit_duration_seconds_count"))
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}

	// The same database serves the same game after a restart, named by the variable.
	base, stop = started(t, []string{"serve", "--address", "127.0.0.1:0"}, env("TREASURY_DATABASE", url))
	res, err = http.Get(base + "/v1/games/" + id)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("game after restart: %v %v", res, err)
	}
	res.Body.Close()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

func grepLines(s string, subs ...string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		for _, sub := range subs {
			if strings.Contains(l, sub) {
				out = append(out, l)
			}
		}
	}
	return strings.Join(out, "\n")
}

func TestDescribeDatabase(t *testing.T) {
	for in, want := range map[string]string{
		"./treasury.db": "./treasury.db",
		"postgres://ann:s3cret@db.example:5432/treasury":            "postgres://ann:xxxxx@db.example:5432/treasury",
		"postgresql://ann@db.example/treasury?password=s3cret":      "postgresql://ann@db.example/treasury?password=xxxxx",
		"POSTGRES://db.example/treasury?sslmode=verify-full":        "postgres://db.example/treasury?sslmode=verify-full",
		"postgres://ann:s3cret@db.example/treasury?connect_timeout": "postgres://ann:xxxxx@db.example/treasury?connect_timeout",
	} {
		if got := describeDatabase(in); got != want {
			t.Errorf("describeDatabase(%q) = %q, want %q", in, got, want)
		}
	}
}
