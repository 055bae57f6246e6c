// Package apitest starts the real API over a real SQLite file, served on a
// loopback port, and sends requests whose answers it holds to the served
// openapi.yaml. The api package's tests and the browser tests (api/webtest)
// share it.
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/api/client"
	groupsvc "github.com/treasury-games/treasury/domain/groups"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// Spec is the served OpenAPI document every answer is checked against, with
// its router; Err says why it could not be loaded.
var Spec = func() struct {
	Doc    *openapi3.T
	Router routers.Router
	Err    error
} {
	var s struct {
		Doc    *openapi3.T
		Router routers.Router
		Err    error
	}
	if s.Doc, s.Err = api.Spec(); s.Err != nil {
		return s
	}
	s.Doc.Servers = nil
	s.Router, s.Err = gorillamux.NewRouter(s.Doc)
	return s
}()

// Server is the real API over a real SQLite file, served on a loopback port.
type Server struct {
	T     *testing.T
	Path  string // the database file
	Store *sqlite.Store
	HTTP  *httptest.Server

	mu      sync.Mutex
	inspect func(Resp) // sees every response, for hidden-information checks
}

// NewServer starts the API on a fresh database file.
func NewServer(t *testing.T) *Server {
	t.Helper()
	return StartServer(t, filepath.Join(t.TempDir(), "treasury.db"))
}

// StartServer starts the API on the database file at path.
func StartServer(t *testing.T, path string) *Server {
	t.Helper()
	if Spec.Err != nil {
		t.Fatal(Spec.Err)
	}
	store, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	games := service.New(store, rulesets.All()...)
	h, err := api.NewHandler(games, api.Options{Logger: Logger(t, slog.LevelWarn), DefaultRuleset: silvergold.RulesetName, Groups: groupsvc.New(store, games)})
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{T: t, Path: path, Store: store, HTTP: httptest.NewServer(h)}
	t.Cleanup(s.Stop)
	return s
}

// Stop shuts the server down and closes its database; it may be called twice.
func (s *Server) Stop() {
	s.HTTP.Close()
	if s.Store != nil {
		_ = s.Store.Close()
	}
}

// Inspect has f see every answer from now on (nil: none), for checks that
// hold across a whole test, such as hidden information.
func (s *Server) Inspect(f func(Resp)) {
	s.mu.Lock()
	s.inspect = f
	s.mu.Unlock()
}

// Logger sends the server's log lines from level up to the test log.
func Logger(t *testing.T, level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: level}))
}

// testWriter sends the server's warnings and errors to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// Resp is an answer as a client sees it.
type Resp struct {
	Status int
	Header http.Header
	Body   []byte
}

// Opt changes a request.
type Opt func(*http.Request)

// Cred sends a credential as a bearer token.
func Cred(c string) Opt {
	return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+c) }
}

// Header sets a request header.
func Header(k, v string) Opt { return func(r *http.Request) { r.Header.Set(k, v) } }

// Do sends one request, checks the answer against openapi.yaml and returns it.
// body is sent as is when it is a string or []byte, JSON-encoded otherwise.
// It is safe to call from several goroutines; failures are reported with
// t.Errorf and a zero Resp.
func (s *Server) Do(t *testing.T, method, path string, body any, opts ...Opt) Resp {
	t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			t.Errorf("encode request: %v", err)
			return Resp{}
		}
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.HTTP.URL+path, rd)
	if err != nil {
		t.Errorf("%s %s: %v", method, path, err)
		return Resp{}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, o := range opts {
		o(req)
	}
	res, err := s.HTTP.Client().Do(req)
	if err != nil {
		t.Errorf("%s %s: %v", method, path, err)
		return Resp{}
	}
	defer res.Body.Close()
	out := Resp{Status: res.StatusCode, Header: res.Header}
	if out.Body, err = io.ReadAll(res.Body); err != nil {
		t.Errorf("%s %s: read body: %v", method, path, err)
		return Resp{}
	}
	if err := Conforms(req, raw, out); err != nil {
		t.Errorf("%s %s: answer %d does not match openapi.yaml: %v\n%s", method, path, out.Status, err, out.Body)
	}
	s.mu.Lock()
	inspect := s.inspect
	s.mu.Unlock()
	if inspect != nil {
		inspect(out)
	}
	return out
}

// Conforms checks an answer against the operation of openapi.yaml that req
// names, and every error answer against the Problem schema.
func Conforms(req *http.Request, body []byte, r Resp) error {
	if r.Status >= 400 {
		if ct := r.Header.Get("Content-Type"); ct != api.ProblemContentType {
			return errors.New("error answer has Content-Type " + ct)
		}
		var v any
		if err := json.Unmarshal(r.Body, &v); err != nil {
			return err
		}
		if err := Spec.Doc.Components.Schemas["Problem"].Value.VisitJSON(v); err != nil {
			return err
		}
	}
	// Route on a copy whose URL is a bare path, as the server sees it.
	rreq := req.Clone(context.Background())
	rreq.URL.Scheme, rreq.URL.Host, rreq.Host = "", "", ""
	rreq.Body = io.NopCloser(bytes.NewReader(body))
	route, params, err := Spec.Router.FindRoute(rreq)
	if err != nil {
		if r.Status == http.StatusNotFound || r.Status == http.StatusMethodNotAllowed {
			return nil // no operation to hold it to; the Problem check above did
		}
		return err
	}
	in := &openapi3filter.RequestValidationInput{
		Request: rreq, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
	return openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 r.Status,
		Header:                 r.Header,
		Body:                   io.NopCloser(bytes.NewReader(r.Body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true},
	})
}

// Problem is an error answer.
type Problem struct {
	Type, Title, Detail, Code, Rule string
	Status                          int
	RequestID                       string `json:"request_id"`
}

// WantProblem checks that r is the error a client would branch on.
func WantProblem(t *testing.T, r Resp, status int, code string) Problem {
	t.Helper()
	var p Problem
	if r.Status != status {
		t.Errorf("status %d, want %d: %s", r.Status, status, r.Body)
		return p
	}
	if err := json.Unmarshal(r.Body, &p); err != nil {
		t.Errorf("problem: %v: %s", err, r.Body)
		return p
	}
	if p.Code != code || p.Status != status || p.Detail == "" || p.Title == "" {
		t.Errorf("problem %+v, want code %s status %d with a title and detail", p, code, status)
	}
	return p
}

// WantStatus stops the test unless r has the status.
func WantStatus(t *testing.T, r Resp, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Body)
	}
}

// Decode decodes a JSON answer, stopping the test if it is not a T.
func Decode[T any](t *testing.T, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decode %T: %v: %s", v, err, b)
	}
	return v
}

// PlayOut plays game id to its end through the API, as a client that knows no
// rule of the game would: it reads the listing of each credential (the host's
// first, then the seats'), sends a move the game awaits (client.Listing.Pick)
// and stops when no credential owes one. It fails the test if the game has not
// ended within limit moves.
func (s *Server) PlayOut(t *testing.T, id string, creds []string, r *rand.Rand, limit int) {
	t.Helper()
	for moves := 0; ; moves++ {
		moved := false
		for _, c := range creds {
			res := s.Do(t, http.MethodGet, "/v1/games/"+id+"/legal-moves", nil, Cred(c))
			WantStatus(t, res, http.StatusOK)
			m, _, ok, err := Decode[client.Listing](t, res.Body).Pick(r)
			if err != nil {
				t.Fatalf("game %s: %v", id, err)
			}
			if ok {
				WantStatus(t, s.Do(t, http.MethodPost, "/v1/games/"+id+"/moves", []byte(m), Cred(c)), http.StatusOK)
				moved = true
				break
			}
		}
		if !moved {
			break
		}
		if moves == limit {
			t.Fatalf("game %s has not ended after %d moves", id, limit)
		}
	}
	g := Decode[struct {
		Ended bool `json:"ended"`
	}](t, s.Do(t, http.MethodGet, "/v1/games/"+id, nil).Body)
	if !g.Ended {
		t.Fatalf("game %s awaits no move it lists, and has not ended", id)
	}
}
