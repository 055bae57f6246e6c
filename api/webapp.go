package api

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"path"

	"github.com/labstack/echo/v4"

	"github.com/treasury-games/treasury/web"
)

// appPolicy keeps the table app to what the server serves: its own script
// and styles (no inline ones), the API and the event stream on the same
// origin, and QR codes drawn as data: images. Credentials travel in the
// URL's fragment, which no Referer carries, and the app sends none. The
// manifest and the service worker (the installable app's offline shell)
// come from the server too.
const appPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; manifest-src 'self'; worker-src 'self'; form-action 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

// appFile is one built file of the app (or of the docs), kept gzipped too:
// a phone on a slow network downloads the smaller one.
type appFile struct {
	body, gzipped []byte
	contentType   string
	etag          string
}

// appFiles are web/dist's files by name, ready to serve.
var appFiles = func() map[string]appFile {
	types := map[string]string{".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
		".webmanifest": "application/manifest+json", ".svg": "image/svg+xml"}
	files := map[string]appFile{}
	for _, name := range []string{"index.html", "app.js", "app.css", "sw.js", "manifest.webmanifest", "icon.svg"} {
		body, err := web.Dist.ReadFile("dist/" + name)
		if err != nil {
			panic("api: the table app is not built into the binary: " + err.Error())
		}
		files[name] = newAppFile(body, types[path.Ext(name)])
	}
	return files
}()

// newAppFile gzips body (once, at start-up) and names its version.
func newAppFile(body []byte, contentType string) appFile {
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	_, _ = w.Write(body)
	_ = w.Close()
	sum := sha256.Sum256(body)
	return appFile{body: body, gzipped: z.Bytes(), contentType: contentType, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
}

// appPage serves the table app's page at /.
func appPage(c echo.Context) error {
	c.Response().Header().Set("Content-Security-Policy", appPolicy)
	return serveAppFile(c, appFiles["index.html"])
}

// appAsset serves the app's script and styles under /app/.
func appAsset(c echo.Context) error {
	f, ok := appFiles[c.Param("file")]
	if !ok || c.Param("file") == "index.html" {
		return echo.ErrNotFound
	}
	if c.Param("file") == "sw.js" {
		// The offline shell covers the page at /, above the worker's own
		// folder.
		c.Response().Header().Set("Service-Worker-Allowed", "/")
	}
	return serveAppFile(c, f)
}

// serveAppFile answers with f, gzipped when the client takes it. The files
// change only with the binary, so a client revalidates (cheaply, by ETag)
// rather than keeping an old app after an upgrade.
func serveAppFile(c echo.Context, f appFile) error {
	h := c.Response().Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", f.etag)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Add("Vary", "Accept-Encoding")
	if c.Request().Header.Get("If-None-Match") == f.etag {
		return c.NoContent(http.StatusNotModified)
	}
	if acceptsGzip(c.Request()) {
		h.Set("Content-Encoding", "gzip")
		return c.Blob(http.StatusOK, f.contentType, f.gzipped)
	}
	return c.Blob(http.StatusOK, f.contentType, f.body)
}
