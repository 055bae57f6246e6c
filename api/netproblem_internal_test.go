package api

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNetHTTPProblem: each plain-text answer net/http writes itself to a
// request it could not read (written as its conn.serve writes them) becomes
// a problem document with the same status; anything else a server writes
// passes as it is.
func TestNetHTTPProblem(t *testing.T) {
	const h = netHTTPErrorHeaders
	for _, tc := range []struct {
		name   string
		wrote  string
		status int
		detail string
	}{
		{"bad request line or path escape", "HTTP/1.1 400 Bad Request" + h + "400 Bad Request", 400,
			"the request is not well-formed HTTP/1.1: check its request line (method, path and %-escapes such as %2F) and its headers"},
		{"missing Host", fmt.Sprintf("HTTP/1.1 %d %s: %s%s%d %s: %s", 400, "Bad Request", "missing required Host header", h, 400, "Bad Request", "missing required Host header"), 400,
			"the request is not well-formed HTTP/1.1: missing required Host header"},
		{"protocol version", fmt.Sprintf("HTTP/1.1 %d %s: %s%s%d %s: %s", 505, "HTTP Version Not Supported", "unsupported protocol version", h, 505, "HTTP Version Not Supported", "unsupported protocol version"), 505,
			"the request is not well-formed HTTP/1.1: unsupported protocol version"},
		{"header too large", "HTTP/1.1 431 Request Header Fields Too Large" + h + "431 Request Header Fields Too Large", 431,
			"the request's header is larger than the server reads"},
		{"transfer encoding", fmt.Sprintf("HTTP/1.1 %d %s%sUnsupported transfer encoding", 501, "Not Implemented", h), 501,
			"the request's Transfer-Encoding is not one the server reads (send Content-Length, or chunked)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := netHTTPProblem([]byte(tc.wrote))
			require.NotNil(t, q)
			res, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(q)), nil)
			require.NoError(t, err)
			body, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			assert.Equal(t, tc.status, res.StatusCode)
			assert.Equal(t, "application/problem+json", res.Header.Get("Content-Type"))
			assert.True(t, res.Close, "Connection: close")
			var p struct {
				Code   string
				Status int
				Detail string
				Title  string
			}
			require.NoError(t, json.Unmarshal(body, &p), "%s", body)
			assert.Equal(t, "invalid", p.Code)
			assert.Equal(t, tc.status, p.Status)
			assert.Equal(t, tc.detail, p.Detail)
			assert.NotEmpty(t, p.Title)
		})
	}
	for _, wrote := range []string{
		"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nDate: Fri, 27 Nov 2026 19:00:00 GMT\r\nContent-Length: 3\r\n\r\nno\n",
		"HTTP/1.1 200 OK" + h + "fine",
		"HTTP/1.1 422 Unprocessable Entity\r\nContent-Type: application/problem+json\r\n\r\n{}",
		"HTTP/1.1 4",
		"event: move\ndata: {}\n\n",
		"",
	} {
		assert.Nil(t, netHTTPProblem([]byte(wrote)), "%q", wrote)
	}
}
