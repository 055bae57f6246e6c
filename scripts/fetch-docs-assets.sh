#!/usr/bin/env bash
# Fetches the Redoc bundle that GET /docs serves from the npm registry into
# api/docs/, where it is committed and embedded in the binary (so the page
# works offline and `go run ./cmd/treasury serve` needs nothing else).
# Run it only to change the pinned version; then update api/docs/README.md.
set -euo pipefail

REDOC_VERSION=2.5.4

cd "$(dirname "$0")/.."
out=api/docs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$tmp" && npm pack --silent "redoc@${REDOC_VERSION}" >/dev/null)
tar -xzf "$tmp/redoc-${REDOC_VERSION}.tgz" -C "$tmp" \
	package/LICENSE package/bundles/redoc.standalone.js package/bundles/redoc.standalone.js.LICENSE.txt

# The bundle names its licence file in its first line; keep that name.
cp "$tmp/package/bundles/redoc.standalone.js" "$out/redoc.standalone.js"
cp "$tmp/package/bundles/redoc.standalone.js.LICENSE.txt" "$out/redoc.standalone.js.LICENSE.txt"
cp "$tmp/package/LICENSE" "$out/LICENSE.redoc"
grep -q "Version: \"${REDOC_VERSION}\"" "$out/redoc.standalone.js.LICENSE.txt" ||
	{ echo "fetch-docs-assets: the bundle is not Redoc ${REDOC_VERSION}" >&2; exit 1; }
echo "fetch-docs-assets: Redoc ${REDOC_VERSION} -> $out/redoc.standalone.js"
