// Package web holds the table app that `treasury serve` serves at /: the
// files esbuild builds from web/src into web/dist (scripts/build-web.sh),
// committed and embedded so that the binary needs nothing else.
package web

import "embed"

// Dist is the built app: index.html, app.js and app.css under dist/.
//
//go:embed dist/index.html dist/app.js dist/app.css
var Dist embed.FS
