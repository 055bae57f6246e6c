package api

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// netHTTPErrorHeaders follow the status line of the answers net/http
// writes itself, before any handler runs, to a request it could not read
// (net/http's conn.serve): a malformed request line or path escape
// ("/v1/games/%zz"), a header too large, a Transfer-Encoding it does not
// know, an unsupported protocol version. Every answer the handler writes
// carries a Date header after them, so only those answers end their
// header here.
const netHTTPErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// netHTTPProblem returns, for such a plain-text answer p (written whole in
// one write), the same refusal as the problem document every other error
// is, or nil when p is not one. It knows no Accept-Language (the request
// was not read), so it speaks English.
func netHTTPProblem(p []byte) []byte {
	const prefix = "HTTP/1.1 "
	if len(p) < len(prefix)+3 || string(p[:len(prefix)]) != prefix || (p[len(prefix)] != '4' && p[len(prefix)] != '5') {
		return nil
	}
	end := bytes.IndexByte(p, '\r')
	if end < 0 || !bytes.HasPrefix(p[end:], []byte(netHTTPErrorHeaders)) {
		return nil
	}
	line := p[len(prefix):end] // "400 Bad Request", "400 Bad Request: missing required Host header"
	status, err := strconv.Atoi(string(line[:3]))
	if err != nil || (len(line) > 3 && line[3] != ' ') {
		return nil
	}
	var reason string
	if i := bytes.Index(line, []byte(": ")); i >= 0 {
		reason = string(line[i+2:])
	}
	var msg i18n.Message
	switch {
	case status == http.StatusRequestHeaderFieldsTooLarge:
		msg = i18n.M("api.http.header-too-large")
	case status == http.StatusNotImplemented:
		msg = i18n.M("api.http.transfer-encoding")
	case reason == "":
		msg = i18n.M("api.http.malformed")
	default:
		msg = i18n.M("api.http.malformed-because", "reason", reason)
	}
	body := problemJSONStatus(i18n.English, domain.Invalid, status, msg)
	return fmt.Appendf(nil, "HTTP/1.1 %d %s\r\nContent-Type: application/problem+json\r\nContent-Language: en\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s",
		status, http.StatusText(status), len(body), body)
}
