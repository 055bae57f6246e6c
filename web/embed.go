// Package web holds the table app that `treasury serve` serves at /: the
// files esbuild builds from web/src into web/dist (scripts/build-web.sh),
// committed and embedded so that the binary needs nothing else.
package web

import "embed"

// Dist is the built app under dist/: index.html, app.js and app.css, and
// what makes it an installable web app: its manifest, icon and service
// worker (sw.js, the offline shell).
//
//go:embed dist/index.html dist/app.js dist/app.css dist/sw.js dist/manifest.webmanifest dist/icon.svg
var Dist embed.FS
