#!/usr/bin/env bash
# Builds the table app (web/) that `treasury serve` serves at /: installs the
# pinned npm packages of web/package-lock.json and bundles web/src (TypeScript)
# with esbuild into web/dist, which is committed and embedded in the binary (so
# `go run ./cmd/treasury serve` needs nothing else and works offline).
# It also leaves axe-core in web/node_modules for the accessibility check of
# the browser tests (api/webtest). CI runs it and fails if it changes anything.
set -euo pipefail
cd "$(dirname "$0")/../web"
npm ci --no-audit --no-fund --loglevel=error
# The types of the API's answers, from the spec the server serves.
npx --no-install openapi-typescript ../openapi.yaml --output src/api.gen.ts --silent
# esbuild strips the types without checking them: tsc does (strict), the
# app and its tests (which also see Node's types).
npx --no-install tsc --noEmit -p tsconfig.json
npx --no-install tsc --noEmit -p tsconfig.test.json
rm -rf dist && mkdir -p dist
# The style sheet comes with the script: main.ts imports src/style.css, and
# each game's screen its own domain/<game>/app/screen.css, so esbuild writes
# them, in that order, to dist/app.css (no list of games' files here).
npx --no-install esbuild src/main.ts --bundle --minify --format=iife --target=es2020 \
	--legal-comments=eof --outfile=dist/app.js --log-level=warning
npx --no-install esbuild src/sw.js --tsconfig-raw='{}' --minify --target=es2020 --outfile=dist/sw.js --log-level=warning
cp index.html static/manifest.webmanifest static/icon.svg dist/
# The bundle carries qrcode-generator (MIT); its notice is the opening comment
# of its source, which esbuild does not keep.
awk '/^\/\//{print; next} {exit}' node_modules/qrcode-generator/dist/qrcode.mjs >dist/NOTICE.qrcode-generator
for f in dist/*; do
	printf '%-20s %7d bytes, %6d gzipped\n' "$f" "$(wc -c <"$f")" "$(gzip -9 -c "$f" | wc -c)"
done
