package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
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
	groupsvc "github.com/treasury-games/treasury/domain/groups"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// spec is the embedded OpenAPI document every response is checked against.
var spec = func() struct {
	doc    *openapi3.T
	router routers.Router
	err    error
} {
	var s struct {
		doc    *openapi3.T
		router routers.Router
		err    error
	}
	if s.doc, s.err = api.Spec(); s.err != nil {
		return s
	}
	s.doc.Servers = nil
	s.router, s.err = gorillamux.NewRouter(s.doc)
	return s
}()

// server is the real API over a real SQLite file, served on a loopback port.
type server struct {
	t     *testing.T
	path  string
	store *sqlite.Store
	http  *httptest.Server

	mu      sync.Mutex
	inspect func(resp) // sees every response, for hidden-information checks
}

// newServer starts the API on a fresh database file.
func newServer(t *testing.T) *server {
	t.Helper()
	return startServer(t, filepath.Join(t.TempDir(), "treasury.db"))
}

// startServer starts the API on the database file at path.
func startServer(t *testing.T, path string) *server {
	t.Helper()
	if spec.err != nil {
		t.Fatal(spec.err)
	}
	store, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	games := service.New(store, rulesets.All()...)
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	h, err := api.NewHandler(games, api.Options{Logger: log, DefaultRuleset: silvergold.RulesetName, Groups: groupsvc.New(store, games)})
	if err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, path: path, store: store, http: httptest.NewServer(h)}
	t.Cleanup(s.stop)
	return s
}

// stop shuts the server down and closes its database; it may be called twice.
func (s *server) stop() {
	s.http.Close()
	_ = s.store.Close()
}

// testWriter sends the server's warnings and errors to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// resp is an answer as a client sees it.
type resp struct {
	Status int
	Header http.Header
	Body   []byte
}

// opt changes a request.
type opt func(*http.Request)

// cred sends a credential as a bearer token.
func cred(c string) opt {
	return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+c) }
}

// header sets a request header.
func header(k, v string) opt { return func(r *http.Request) { r.Header.Set(k, v) } }

// do sends one request, checks the answer against openapi.yaml and returns it.
// body is sent as is when it is a string or []byte, JSON-encoded otherwise.
// It is safe to call from several goroutines; failures are reported with
// t.Errorf and a zero resp.
func (s *server) do(t *testing.T, method, path string, body any, opts ...opt) resp {
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
			return resp{}
		}
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.http.URL+path, rd)
	if err != nil {
		t.Errorf("%s %s: %v", method, path, err)
		return resp{}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, o := range opts {
		o(req)
	}
	res, err := s.http.Client().Do(req)
	if err != nil {
		t.Errorf("%s %s: %v", method, path, err)
		return resp{}
	}
	defer res.Body.Close()
	out := resp{Status: res.StatusCode, Header: res.Header}
	if out.Body, err = io.ReadAll(res.Body); err != nil {
		t.Errorf("%s %s: read body: %v", method, path, err)
		return resp{}
	}
	if err := conforms(req, raw, out); err != nil {
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

// conforms checks an answer against the operation of openapi.yaml that req
// names, and every error answer against the Problem schema.
func conforms(req *http.Request, body []byte, r resp) error {
	if r.Status >= 400 {
		if ct := r.Header.Get("Content-Type"); ct != api.ProblemContentType {
			return errors.New("error answer has Content-Type " + ct)
		}
		var v any
		if err := json.Unmarshal(r.Body, &v); err != nil {
			return err
		}
		if err := spec.doc.Components.Schemas["Problem"].Value.VisitJSON(v); err != nil {
			return err
		}
	}
	// Route on a copy whose URL is a bare path, as the server sees it.
	rreq := req.Clone(context.Background())
	rreq.URL.Scheme, rreq.URL.Host, rreq.Host = "", "", ""
	rreq.Body = io.NopCloser(bytes.NewReader(body))
	route, params, err := spec.router.FindRoute(rreq)
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

// problem is an error answer.
type problem struct {
	Type, Title, Detail, Code, Rule string
	Status                          int
	RequestID                       string `json:"request_id"`
}

// wantProblem checks that r is the error a client would branch on.
func wantProblem(t *testing.T, r resp, status int, code string) problem {
	t.Helper()
	var p problem
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

// wantStatus checks the status of r.
func wantStatus(t *testing.T, r resp, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Body)
	}
}

func decode[T any](t *testing.T, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decode %T: %v: %s", v, err, b)
	}
	return v
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
