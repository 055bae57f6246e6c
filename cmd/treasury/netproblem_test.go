package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUnreadableRequestsGetProblems: a request net/http cannot read (a
// malformed path escape, no Host, an unknown protocol version or
// Transfer-Encoding, a header past the limit) is refused, before any
// handler runs, with the problem document every other error is, and the
// server goes on serving.
func TestUnreadableRequestsGetProblems(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	base, _ := started(t, []string{"serve", "--address", "127.0.0.1:0", "--database", db}, env())
	addr := strings.TrimPrefix(base, "http://")
	for _, tc := range []struct {
		name    string
		request string
		status  int
		detail  string
	}{
		{"path escape", "GET /v1/games/%zz/moves HTTP/1.1\r\nHost: treasury\r\n\r\n", 400, "%-escapes"},
		{"no Host", "GET /healthz HTTP/1.1\r\n\r\n", 400, "missing required Host header"},
		{"protocol version", "GET /healthz HTTP/2.5\r\nHost: treasury\r\n\r\n", 505, "unsupported protocol version"},
		{"transfer encoding", "POST /v1/games HTTP/1.1\r\nHost: treasury\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "Transfer-Encoding"},
		{"header too large", "GET /healthz HTTP/1.1\r\nHost: treasury\r\nX-Big: " + strings.Repeat("a", 2<<20) + "\r\n\r\n", 431, "header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.DialTimeout("tcp", addr, 10*time.Second)
			require.NoError(t, err)
			defer c.Close()
			require.NoError(t, c.SetDeadline(time.Now().Add(30*time.Second)))
			go func() { _, _ = io.WriteString(c, tc.request) }() // the server may answer before it has read it all
			res, err := http.ReadResponse(bufio.NewReader(c), nil)
			require.NoError(t, err)
			body, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			assert.Equal(t, tc.status, res.StatusCode)
			assert.Equal(t, "application/problem+json", res.Header.Get("Content-Type"))
			var p struct {
				Code   string
				Status int
				Detail string
			}
			require.NoError(t, json.Unmarshal(body, &p), "%s", body)
			assert.Equal(t, "invalid", p.Code)
			assert.Equal(t, tc.status, p.Status)
			assert.Contains(t, p.Detail, tc.detail)
		})
	}
	res, err := http.Get(base + "/healthz")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode, "served after the refusals")
}
