package api

import (
	"embed"
	"net/http"

	"github.com/labstack/echo/v4"
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

// docsPage serves the page that renders openapi.yaml with Redoc.
func docsPage(c echo.Context) error {
	page, err := docsFiles.ReadFile("docs/index.html")
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Security-Policy", docsPolicy)
	return c.HTMLBlob(http.StatusOK, page)
}

// docsScript serves Redoc's bundle. It changes only with the binary, so
// clients may keep it for a day.
func docsScript(c echo.Context) error {
	js, err := docsFiles.ReadFile("docs/redoc.standalone.js")
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=86400")
	return c.Blob(http.StatusOK, "text/javascript; charset=utf-8", js)
}
