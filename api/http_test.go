package api_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// TestMediaTypeCase: media types are case-insensitive.
func TestMediaTypeCase(t *testing.T) {
	s := newServer(t)
	body := `{"ruleset":"silver-and-gold","mode":"physical","players":[{"name":"Ann"}]}`
	for _, ct := range []string{"APPLICATION/JSON", "Application/Json; Charset=UTF-8"} {
		wantStatus(t, s.Do(t, http.MethodPost, "/v1/games", body, header("Content-Type", ct)), http.StatusCreated)
	}
	wantProblem(t, s.Do(t, http.MethodPost, "/v1/games", body, header("Content-Type", "TEXT/PLAIN")), http.StatusUnsupportedMediaType, "unsupported_media_type")
}

// TestIfMatchLists: If-Match as RFC 9110 reads it.
func TestIfMatchLists(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "digital", 2, "if-match")
	var keeps []silvergold.Move
	for seat := range 2 {
		keeps = append(keeps, silvergold.Move{Type: silvergold.MoveKeep, Seat: silvergold.SeatPtr(seat), Cards: tb.legal(t, seat).Keep[:2]})
	}
	post := func(seat int, ifMatch string) resp {
		return s.Do(t, http.MethodPost, tb.path("/moves"), keeps[seat], cred(tb.seats[seat]), header("If-Match", ifMatch))
	}
	p := wantProblem(t, post(0, `W/"0"`), http.StatusPreconditionFailed, "precondition_failed")
	if !strings.Contains(p.Detail, "weak") {
		t.Errorf("the refusal of a weak tag does not say why: %q", p.Detail)
	}
	wantProblem(t, post(0, `W/"0", "7"`), http.StatusPreconditionFailed, "precondition_failed")
	wantProblem(t, post(0, `"not-a-version"`), http.StatusPreconditionFailed, "precondition_failed")
	wantProblem(t, post(0, `"3", W/"0"`), http.StatusPreconditionFailed, "precondition_failed")
	wantStatus(t, post(0, `"5", "0"`), http.StatusOK) // any member may match
	wantStatus(t, post(1, `"abc", *`), http.StatusOK)
	for _, malformed := range []string{`"1`, `1, `, `W/1`} {
		if r := post(0, malformed); r.Status != http.StatusBadRequest {
			t.Errorf("If-Match %s: %d, want 400", malformed, r.Status)
		}
	}
}

// TestFractionalSeat: "seat": 0.0 is refused with a reason a person can act
// on, not encoding/json's.
func TestFractionalSeat(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "digital", 1, "fraction")
	l := tb.legal(t, 0)
	body := fmt.Sprintf(`{"type":"keep","seat":0.0,"cards":[%q,%q]}`, l.Keep[0], l.Keep[1])
	p := wantProblem(t, s.Do(t, http.MethodPost, tb.path("/moves"), body, cred(tb.seats[0])), http.StatusBadRequest, "invalid")
	if !strings.Contains(p.Detail, "seat must be a whole number") || strings.Contains(p.Detail, "Go struct") {
		t.Errorf("detail %q", p.Detail)
	}
}

// TestShortBody: a body shorter than its Content-Length is answered, once the
// read timeout passes, with 408 request_timeout as problem+json.
func TestShortBody(t *testing.T) {
	s := newServer(t)
	srv := httptest.NewUnstartedServer(s.HTTP.Config.Handler)
	srv.Config.ReadTimeout = 300 * time.Millisecond
	srv.Start()
	t.Cleanup(srv.Close)
	for _, path := range []string{"/v1/games", "/v1/records/verify"} {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"ruleset\"", path)
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		res.Body.Close()
		conn.Close()
		if res.StatusCode != http.StatusRequestTimeout || res.Header.Get("Content-Type") != api.ProblemContentType {
			t.Errorf("%s: %d %s, want 408 %s", path, res.StatusCode, res.Header.Get("Content-Type"), api.ProblemContentType)
		}
	}
}

// TestBadEscapes: a %-escape that is not one, in a query or a path parameter
// (where the request reaches the server), is a problem, not ignored.
func TestBadEscapes(t *testing.T) {
	s := newServer(t)
	tb := newTable(t, s, "digital", 1, "escapes")
	p := wantProblem(t, s.Do(t, http.MethodGet, tb.path("/moves?after=%zz"), nil), http.StatusBadRequest, "validation_failed")
	if !strings.Contains(p.Detail, "query") {
		t.Errorf("detail %q", p.Detail)
	}
}
