package api_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/api/apitest"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// failingStore is the SQLite store whose appends fail as they do on a full
// disk, while fail is set.
type failingStore struct {
	*sqlite.Store
	fail atomic.Bool
}

// errDiskFull is what the SQLite store returns for a write on a full disk.
var errDiskFull = fmt.Errorf("%w: %w", domain.Errorf(domain.Unavailable, "the game store cannot write now (its disk is full or failing): the request was not carried out; retry later"),
	errors.New("sqlite: commit: database or disk is full"))

func (f *failingStore) Append(ctx context.Context, a domain.Append) error {
	if f.fail.Load() {
		return errDiskFull
	}
	return f.Store.Append(ctx, a)
}

func (f *failingStore) QueueAppend(ctx context.Context, a domain.Append) func() error {
	if f.fail.Load() {
		return func() error { return errDiskFull }
	}
	return f.Store.QueueAppend(ctx, a)
}

// TestWriteFailure: a move the store cannot write is answered 503
// unavailable with Retry-After, changes nothing, and succeeds when retried
// once the store writes again.
func TestWriteFailure(t *testing.T) {
	store, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "treasury.db"))
	if err != nil {
		t.Fatal(err)
	}
	fs := &failingStore{Store: store}
	h, err := api.NewHandler(service.New(fs, silvergold.NewRules()), api.Options{
		Logger: apitest.Logger(t, slog.LevelError), DefaultRuleset: silvergold.RulesetName,
	})
	if err != nil {
		t.Fatal(err)
	}
	s := &server{T: t, Store: store, HTTP: httptest.NewServer(h)}
	t.Cleanup(s.Stop)
	tb := newTable(t, s, "digital", 1, "full")
	keep := silvergold.Move{Type: silvergold.MoveKeep, Seat: silvergold.SeatPtr(0), Cards: tb.legal(t, 0).Keep[:2]}

	fs.fail.Store(true)
	r := s.Do(t, http.MethodPost, tb.path("/moves"), keep, cred(tb.seats[0]), header("Idempotency-Key", "k1"))
	p := wantProblem(t, r, http.StatusServiceUnavailable, "unavailable")
	if r.Header.Get("Retry-After") == "" || !strings.Contains(p.Detail, "retry") {
		t.Errorf("Retry-After %q, detail %q: want when and whether to retry", r.Header.Get("Retry-After"), p.Detail)
	}
	if g, _ := tb.get(t, tb.host); g.Version != 0 {
		t.Errorf("the game is at version %d after a move that was not stored", g.Version)
	}
	fs.fail.Store(false)
	if got := tb.play(t, tb.seats[0], keep, header("Idempotency-Key", "k1")); got.Seq != 1 {
		t.Errorf("the retried move is at %d, want 1", got.Seq)
	}
}

// tinyDisk mounts a tmpfs of size for the test, or skips it where mounting
// is not permitted.
func tinyDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a %s tmpfs to fill (%v): run as root to test a full disk", size, err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// TestDiskFull: on a real full disk moves are answered 503 with Retry-After
// and /readyz says not ready; once there is room again /readyz recovers by
// itself and the move goes through.
func TestDiskFull(t *testing.T) {
	dir := tinyDisk(t, "8m")
	s := startServer(t, filepath.Join(dir, "treasury.db"))
	tb := newTable(t, s, "digital", 2, "full")
	dealt := tb.legal(t, 0).Keep
	keep := func(i int) silvergold.Move { // seat 0 changes its keep: each is a write
		return silvergold.Move{Type: silvergold.MoveKeep, Seat: silvergold.SeatPtr(0), Cards: dealt[i%2*2 : i%2*2+2]}
	}

	filler := filepath.Join(dir, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			break
		}
	}
	for _, err := f.Write(chunk[:1]); err == nil; _, err = f.Write(chunk[:1]) {
	}
	f.Close()

	// The log may still have room for a page or two.
	var r resp
	for i := range 10 {
		if r = s.Do(t, http.MethodPost, tb.path("/moves"), keep(i), cred(tb.seats[0])); r.Status != http.StatusOK {
			break
		}
	}
	wantProblem(t, r, http.StatusServiceUnavailable, "unavailable")
	if r.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	wantProblem(t, s.Do(t, http.MethodGet, "/readyz", nil), http.StatusServiceUnavailable, "unavailable")
	wantStatus(t, s.Do(t, http.MethodGet, "/healthz", nil), http.StatusOK)

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for s.Do(t, http.MethodGet, "/readyz", nil).Status != http.StatusOK {
		if time.Now().After(deadline) {
			t.Fatal("/readyz is still not ready with room on the disk")
		}
		time.Sleep(100 * time.Millisecond)
	}
	tb.play(t, tb.seats[0], keep(0))
}
