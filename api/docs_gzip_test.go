package api_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	treasury "github.com/treasury-games/treasury"
	"github.com/treasury-games/treasury/domain/rulesets"
)

// TestDocsGzipped: /docs, Redoc's bundle and openapi.yaml (together some
// 1.3 MB), and the languages' catalogs the table app reads at start (108 KB
// in English), are sent gzipped to a client that takes gzip, and as they
// are to one that does not; both decode to the same bytes.
func TestDocsGzipped(t *testing.T) {
	s := newServer(t)
	get := func(path, encoding string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, s.HTTP.URL+path, nil)
		if encoding != "" {
			req.Header.Set("Accept-Encoding", encoding)
		}
		res, err := http.DefaultTransport.RoundTrip(req) // no transparent decompression
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, res.StatusCode, body)
		}
		return res, body
	}
	for _, c := range []struct{ path, ctype string }{
		{"/docs", "text/html"}, {"/docs/redoc.standalone.js", "text/javascript"}, {"/openapi.yaml", "application/yaml"},
		{"/v1/languages/en", "application/json"}, {"/v1/languages/de", "application/json"},
	} {
		plain, body := get(c.path, "")
		zipped, zbody := get(c.path, "gzip, deflate, br")
		if plain.Header.Get("Content-Encoding") != "" {
			t.Errorf("GET %s without Accept-Encoding: Content-Encoding %q", c.path, plain.Header.Get("Content-Encoding"))
		}
		if zipped.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("GET %s with Accept-Encoding gzip: Content-Encoding %q, %d bytes", c.path, zipped.Header.Get("Content-Encoding"), len(zbody))
			continue
		}
		for _, r := range []*http.Response{plain, zipped} {
			if !strings.HasPrefix(r.Header.Get("Content-Type"), c.ctype) || !strings.Contains(strings.Join(r.Header.Values("Vary"), ","), "Accept-Encoding") {
				t.Errorf("GET %s: Content-Type %q, Vary %q", c.path, r.Header.Get("Content-Type"), r.Header.Values("Vary"))
			}
		}
		zr, err := gzip.NewReader(bytes.NewReader(zbody))
		if err != nil {
			t.Fatalf("GET %s: not gzip: %v", c.path, err)
		}
		unzipped, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(unzipped, body) {
			t.Errorf("GET %s: the gzipped body does not decode to the plain one (%v)", c.path, err)
		}
		t.Logf("GET %s: %d bytes, %d gzipped", c.path, len(body), len(zbody))
	}
}

// TestDocsIntro: the introduction of the API's documentation names every
// game the server plays, by title and ruleset name.
func TestDocsIntro(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(treasury.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	intro := doc.Info.Description
	if intro == "" {
		t.Fatal("openapi.yaml has no introduction")
	}
	for _, r := range rulesets.All() {
		info := r.Info()
		if !strings.Contains(intro, info.Title) || !strings.Contains(intro, "`"+info.Name+"`") {
			t.Errorf("the introduction does not name %s (`%s`):\n%s", info.Title, info.Name, intro[:min(len(intro), 400)])
		}
	}
	if strings.Contains(intro, "first game") {
		t.Errorf("the introduction still speaks of a first game:\n%s", intro[:min(len(intro), 400)])
	}
}
