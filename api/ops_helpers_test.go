package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/domain"
	all "github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// opsServer is the real API over a real SQLite file, wired as treasury serve
// wires it (metrics, the store's commit observer, a shutdown signal), with a
// JSON log the test can read and settings the test chooses.
type opsServer struct {
	*server
	games   *service.Games
	metrics *api.Metrics
	handler http.Handler
	logs    *syncBuffer
	done    chan struct{}
	client  *client.ClientWithResponses
}

// startOps starts such a server; configure changes its options, and the
// rulesets are offered besides Silver & Gold.
func startOps(t *testing.T, configure func(*api.Options), rulesets ...domain.Ruleset) *opsServer {
	t.Helper()
	if spec.Err != nil {
		t.Fatal(spec.Err)
	}
	metrics := api.NewMetrics()
	path := filepath.Join(t.TempDir(), "treasury.db")
	store, err := sqlite.Open(context.Background(), path, sqlite.WithCommitObserver(metrics.ObserveCommit))
	if err != nil {
		t.Fatal(err)
	}
	games := service.New(store, append(all.All(), rulesets...)...)
	logs := &syncBuffer{}
	done := make(chan struct{})
	opts := api.Options{
		Logger:         slog.New(slog.NewJSONHandler(logs, nil)),
		DefaultRuleset: silvergold.RulesetName,
		Metrics:        metrics,
		CountGames:     store.CountGames,
		Done:           done,
	}
	if configure != nil {
		configure(&opts)
	}
	h, err := api.NewHandler(games, opts)
	if err != nil {
		t.Fatal(err)
	}
	s := &opsServer{
		server:  &server{T: t, Path: path, Store: store, HTTP: httptest.NewServer(h)},
		games:   games,
		metrics: metrics,
		handler: h,
		logs:    logs,
		done:    done,
	}
	s.client, err = client.NewClientWithResponses(s.HTTP.URL, client.WithHTTPClient(s.HTTP.Client()))
	if err != nil {
		t.Fatal(err)
	}
	// Cleanups run last first: end the streams, then stop the server.
	t.Cleanup(s.Stop)
	t.Cleanup(s.shutdown)
	return s
}

// shutdown tells open event streams that the server shuts down.
func (s *opsServer) shutdown() {
	select {
	case <-s.done:
	default:
		close(s.done)
	}
}

// syncBuffer is a log any goroutine may write.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// lines returns the JSON log lines written so far.
func (b *syncBuffer) lines(t *testing.T) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for _, l := range bytes.Split(bytes.TrimSpace(b.buf.Bytes()), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

// metric returns the value of one metric series, 0 when it does not exist.
func (s *opsServer) metric(t *testing.T, name string, labels ...string) float64 {
	t.Helper()
	mfs, err := s.metrics.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
	series:
		for _, m := range mf.GetMetric() {
			have := map[string]string{}
			for _, l := range m.GetLabel() {
				have[l.GetName()] = l.GetValue()
			}
			for i := 0; i+1 < len(labels); i += 2 {
				if have[labels[i]] != labels[i+1] {
					continue series
				}
			}
			switch {
			case m.Counter != nil:
				return m.Counter.GetValue()
			case m.Gauge != nil:
				return m.Gauge.GetValue()
			case m.Histogram != nil:
				return float64(m.Histogram.GetSampleCount())
			}
		}
	}
	return 0
}

// stream is an open event stream read by a goroutine.
type stream struct {
	resp   *http.Response
	events chan client.Event
	err    chan error // what ended the reading: io.EOF when the server ended the stream
}

// openStream opens GET path as an event stream with the given headers.
func openStream(t *testing.T, s *server, path string, headers ...string) *stream {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.HTTP.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := s.HTTP.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Fatalf("GET %s: %d %s: %s", path, resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	st := &stream{resp: resp, events: make(chan client.Event, 10000), err: make(chan error, 1)}
	go func() {
		r := client.NewEventReader(resp.Body)
		for {
			ev, err := r.Next()
			if err != nil {
				close(st.events)
				st.err <- err
				return
			}
			st.events <- ev
		}
	}()
	t.Cleanup(func() { resp.Body.Close() })
	return st
}

// next returns the next event, failing the test after a while.
func (st *stream) next(t *testing.T) (client.Event, bool) {
	t.Helper()
	select {
	case ev, ok := <-st.events:
		return ev, ok
	case <-time.After(10 * time.Second):
		t.Fatal("no event for 10 s")
		return client.Event{}, false
	}
}

// all reads every event until the server ends the stream.
func (st *stream) all(t *testing.T) []client.Event {
	t.Helper()
	var out []client.Event
	for {
		ev, ok := st.next(t)
		if !ok {
			if err := <-st.err; !errors.Is(err, io.EOF) {
				t.Errorf("the stream ended with %v, not at the end of an event", err)
			}
			return out
		}
		out = append(out, ev)
	}
}

// groupOf is one move's events as a stream sent them.
type groupOf struct {
	seq    int64
	move   models.EventMove
	events []client.Event // after the move event
}

// groups splits events (a snapshot first, maybe) into moves' groups and
// checks their shape: a move event first, the version as id on the last
// event and on no other.
func groups(t *testing.T, events []client.Event) (snapshot *models.Game, out []groupOf) {
	t.Helper()
	if len(events) > 0 && events[0].Type == "snapshot" {
		var g models.Game
		if err := json.Unmarshal(events[0].Data, &g); err != nil {
			t.Fatalf("snapshot: %v", err)
		}
		if events[0].ID != strconv.FormatInt(g.Version, 10) {
			t.Errorf("snapshot at version %d has id %q", g.Version, events[0].ID)
		}
		snapshot, events = &g, events[1:]
	}
	for len(events) > 0 {
		if events[0].Type != "move" {
			t.Fatalf("a group starts with %s, not move", events[0].Type)
		}
		var g groupOf
		if err := json.Unmarshal(events[0].Data, &g.move); err != nil {
			t.Fatalf("move: %v: %s", err, events[0].Data)
		}
		g.seq = g.move.Seq
		id := strconv.FormatInt(g.seq, 10)
		i := 0
		for ; events[i].ID == ""; i++ {
			if i+1 == len(events) {
				t.Fatalf("the group of move %d ends without an id", g.seq)
			}
			if i > 0 && events[i].Type == "move" {
				t.Fatalf("the group of move %d has no id before the next move", g.seq)
			}
		}
		if events[i].ID != id {
			t.Fatalf("the group of move %d ends with id %q", g.seq, events[i].ID)
		}
		for _, e := range events[:i+1] {
			if !json.Valid(e.Data) {
				t.Errorf("move %d: event %s: data is not JSON: %s", g.seq, e.Type, e.Data)
			}
		}
		g.events = events[1 : i+1]
		out = append(out, g)
		events = events[i+1:]
	}
	return snapshot, out
}

// seqs lists the moves of groups.
func seqs(gs []groupOf) []int64 {
	out := make([]int64, len(gs))
	for i, g := range gs {
		out[i] = g.seq
	}
	return out
}

// span is the versions from (excluded) to (included).
func span(from, to int64) []int64 {
	var out []int64
	for v := from + 1; v <= to; v++ {
		out = append(out, v)
	}
	return out
}

// noteRules is a ruleset of no real game, for what Silver & Gold never does:
// every move (any JSON) is accepted and causes a public "note" event and a
// "secret" event private to one seat (the mover's, or for the host's moves
// seat n mod players), each with pad bytes of padding. The game ends after
// the number of moves its seed names ("end=<n>"), or never.
type noteRules struct{ pad int }

const notesRuleset = "notes"

func (noteRules) Name() string { return notesRuleset }

func (noteRules) Info() domain.RulesetInfo {
	return domain.RulesetInfo{Name: notesRuleset, Title: "Notes", MinPlayers: 1, MaxPlayers: 8, Modes: []string{domain.Digital}}
}

func (r noteRules) Create(req domain.CreateRequest) (domain.Game, domain.CatalogBlob, error) {
	g := &noteGame{Seats: len(req.Players), Pad: r.pad, Req: req}
	fmt.Sscanf(req.Seed, "end=%d", &g.End)
	return g, domain.CatalogBlob{Name: "none", Hash: "notes-v1", Content: []byte("notes")}, nil
}

func (noteRules) Restore(state []byte, _ domain.CatalogBlob) (domain.Game, error) {
	g := &noteGame{}
	return g, json.Unmarshal(state, g)
}

func (noteRules) Replay(domain.CreateRequest, domain.CatalogBlob, []domain.ReplayMove) (domain.Game, int, error) {
	return nil, 0, errors.New("notes: no replay")
}

type noteGame struct {
	Seats, Pad, N, End int
	Req                domain.CreateRequest
	events             []domain.Event
}

func (g *noteGame) Apply(a domain.Actor, move []byte) (domain.Logged, error) {
	if g.Ended() {
		return domain.Logged{}, domain.Errorf(domain.IllegalMove, "the notes are over")
	}
	g.N++
	seat := a.Seat
	if a.Host {
		seat = g.N % g.Seats
	}
	pad := strings.Repeat("p", g.Pad)
	note, _ := json.Marshal(map[string]any{"n": g.N, "pad": pad})
	secret, _ := json.Marshal(map[string]any{"n": g.N, "for": seat, "pad": pad})
	g.events = []domain.Event{{Type: "note", Data: note}, {Type: "secret", For: &seat, Data: secret}}
	if g.Ended() {
		g.events = append(g.events, domain.Event{Type: "game_ended", Data: json.RawMessage(`{}`)})
	}
	return domain.Logged{Move: move}, nil
}

func (g *noteGame) Snapshot() ([]byte, error) { return json.Marshal(g) }
func (g *noteGame) Phase() string {
	if g.Ended() {
		return "ended"
	}
	return "noting"
}
func (g *noteGame) Ended() bool  { return g.End > 0 && g.N >= g.End }
func (g *noteGame) Players() int { return g.Seats }
func (g *noteGame) AppendView(b []byte, _ domain.Viewer) ([]byte, error) {
	v, err := json.Marshal(map[string]int{"n": g.N})
	return append(b, v...), err
}
func (g *noteGame) LegalMoves(domain.Viewer, int) ([]byte, error) { return []byte(`{}`), nil }
func (g *noteGame) Score() ([]byte, error)                        { return []byte(`{}`), nil }
func (g *noteGame) Setup() domain.CreateRequest                   { return g.Req }
func (g *noteGame) Events() []domain.Event                        { return g.events }

// noteMove is a body that openapi.yaml accepts as a move (a table report);
// the notes ruleset takes anything.
const noteMove = `{"type":"reveal","expedition":"T4"}`
