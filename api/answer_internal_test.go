package api

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"
)

// TestMoveAnswerHeaders: a move's answer carries the header lines and body
// that http.Header.Set and Add would have written, whatever it was given
// before (the middleware's Vary), and a header added to after it leaves
// the others as they were (their values share one slice).
func TestMoveAnswerHeaders(t *testing.T) {
	for _, r := range []moveResult200{
		{body: []byte(`{"seq":3,"version":3}`), etag: `"3"`, replayed: true, minimal: true},
		{body: []byte(`{"seq":4,"game":{}}`), etag: `"4"; lang=de`},
	} {
		got := httptest.NewRecorder()
		got.Header().Add("Vary", "Authorization")
		got.Header().Set("Etag", "stale")
		require.NoError(t, r.VisitSubmitMoveResponse(got))

		want := httptest.NewRecorder()
		want.Header().Add("Vary", "Authorization")
		want.Header().Set("ETag", "stale")
		w := want.Header()
		w.Set("ETag", r.etag)
		w.Set("Idempotency-Replayed", strconv.FormatBool(r.replayed))
		w.Add("Vary", "Prefer")
		if r.minimal {
			w.Set("Preference-Applied", "return=minimal")
		}
		w.Set("Content-Type", "application/json")
		w.Set("Content-Length", strconv.Itoa(len(r.body)+1))
		want.WriteHeader(http.StatusOK)
		want.Write(append(r.body, '\n'))

		require.Equal(t, want.Code, got.Code)
		require.Equal(t, wireHeader(t, want.Header()), wireHeader(t, got.Header()))
		require.Equal(t, want.Body.String(), got.Body.String())

		got.Header().Add("Etag", "x")
		got.Header().Add("Content-Type", "y")
		want.Header().Add("Etag", "x")
		want.Header().Add("Content-Type", "y")
		require.Equal(t, wireHeader(t, want.Header()), wireHeader(t, got.Header()))
	}
}

// wireHeader is h as net/http writes it on the wire.
func wireHeader(t *testing.T, h http.Header) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, h.Write(&b))
	return b.String()
}

// TestSpeakHeaders: speak's Content-Language and Vary, and the Vary values
// added after it, reach the wire as Set and Add would have written them,
// with a Vary set before it or not, and in English or not.
func TestSpeakHeaders(t *testing.T) {
	e := echo.New()
	for _, c := range []struct{ accept, before string }{{"en", ""}, {"de", ""}, {"de", "Origin"}} {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header.Set("Accept-Language", c.accept)
		rec := httptest.NewRecorder()
		ctx := e.NewContext(req, rec)
		if c.before != "" {
			rec.Header().Add("Vary", c.before)
		}
		h := speak(privateCache(func(ctx echo.Context) error {
			ctx.Response().Header().Add("Vary", "Prefer")
			ctx.Response().Header().Add("Content-Language", "x")
			return ctx.String(http.StatusOK, "ok")
		}))
		require.NoError(t, h(ctx))

		want := http.Header{}
		if c.before != "" {
			want.Add("Vary", c.before)
		}
		want.Set("Content-Language", c.accept)
		want.Add("Vary", "Accept-Language")
		want.Set("Cache-Control", "no-store")
		want.Add("Vary", "Authorization")
		want.Add("Vary", "Prefer")
		want.Add("Content-Language", "x")
		want.Set("Content-Type", "text/plain; charset=UTF-8")
		require.Equal(t, wireHeader(t, want), wireHeader(t, rec.Header()), "Accept-Language %s", c.accept)
	}
}
