package api

import (
	"embed"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	treasury "github.com/treasury-games/treasury"
	"github.com/treasury-games/treasury/api/oapi"
)

// docsFiles are the page GET /docs serves and Redoc's bundle, which
// scripts/fetch-docs-assets.sh takes from the npm registry (see
// docs/README.md).
//
//go:embed docs/index.html docs/redoc.standalone.js
var docsFiles embed.FS

// docsPolicy keeps the page to what the server serves: Redoc's sidebar
// shows a logo from a CDN, which this blocks (Redoc then leaves it out), so
// that reading the docs tells no third party and works offline. Redoc needs
// inline styles and runs its search in a worker made from a blob.
const docsPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; " +
	"object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

// What reading the docs downloads, each kept gzipped too, once at start-up:
// Redoc's bundle is 1.1 MB and openapi.yaml 0.2 MB, a fifth of that
// gzipped.
var (
	docsPageFile   = newAppFile(mustDocsFile("docs/index.html"), "text/html; charset=utf-8")
	docsScriptFile = newAppFile(mustDocsFile("docs/redoc.standalone.js"), "text/javascript; charset=utf-8")
	specFile       = newAppFile(treasury.OpenAPI, "application/yaml")
)

func mustDocsFile(name string) []byte {
	b, err := docsFiles.ReadFile(name)
	if err != nil {
		panic("api: the docs page is not built into the binary: " + err.Error())
	}
	return b
}

// docsPage serves the page that renders openapi.yaml with Redoc.
func docsPage(c echo.Context) error {
	c.Response().Header().Set("Content-Security-Policy", docsPolicy)
	return serveAppFile(c, docsPageFile)
}

// docsScript serves Redoc's bundle.
func docsScript(c echo.Context) error {
	return serveAppFile(c, docsScriptFile)
}

// gzipAnswers answers GET /openapi.yaml and a language's catalog
// (GET /v1/languages/{lang}) gzipped when the client takes gzip: both are
// large and the same for everyone, kept gzipped once. (A strict-handler
// middleware: the operations' own handlers have no request headers to look
// at.)
func gzipAnswers(f oapi.StrictHandlerFunc, operation string) oapi.StrictHandlerFunc {
	switch operation {
	case "GetOpenAPI":
		return func(c echo.Context, req any) (any, error) {
			c.Response().Header().Add("Vary", "Accept-Encoding")
			if acceptsGzip(c.Request()) {
				return gzippedSpec{}, nil
			}
			return f(c, req)
		}
	case "GetLanguage":
		return func(c echo.Context, req any) (any, error) {
			c.Response().Header().Add("Vary", "Accept-Encoding")
			res, err := f(c, req)
			if cat, ok := res.(languageCatalog200); ok {
				cat.gzip = acceptsGzip(c.Request())
				return cat, err
			}
			return res, err
		}
	}
	return f
}

// gzippedSpec is openapi.yaml, gzipped.
type gzippedSpec struct{}

// VisitGetOpenAPIResponse writes the gzipped spec.
func (gzippedSpec) VisitGetOpenAPIResponse(w http.ResponseWriter) error {
	h := w.Header()
	h.Set("Content-Type", specFile.contentType)
	h.Set("Content-Encoding", "gzip")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(specFile.gzipped)
	return err
}

// acceptsGzip reports whether the request's client takes gzip.
func acceptsGzip(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept-Encoding"), "gzip")
}
