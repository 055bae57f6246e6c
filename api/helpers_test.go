package api_test

import (
	"encoding/json"
	"testing"

	"github.com/treasury-games/treasury/api/apitest"
)

// The real API over a real SQLite file, and requests whose answers are held
// to openapi.yaml: see package apitest, shared with the browser tests.
type (
	server  = apitest.Server
	resp    = apitest.Resp
	opt     = apitest.Opt
	problem = apitest.Problem
)

var (
	spec        = &apitest.Spec
	newServer   = apitest.NewServer
	startServer = apitest.StartServer
	cred        = apitest.Cred
	header      = apitest.Header
	conforms    = apitest.Conforms
	wantProblem = apitest.WantProblem
	wantStatus  = apitest.WantStatus
)

func decode[T any](t *testing.T, b []byte) T {
	t.Helper()
	return apitest.Decode[T](t, b)
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
