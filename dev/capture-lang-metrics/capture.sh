#!/bin/sh
# Captures the Go reference for the lang-metrics cross-check: copies a few files of the installed Go's standard
# library into test/fixtures/lang-metrics/go/ and records what go/ast says of their functions (go_functions.go)
# in expected.json beside them. Needs a Go toolchain; run from anywhere.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/../../test/fixtures/lang-metrics/go
src=$(go env GOROOT)/src
mkdir -p "$out"
for f in strings/strings.go net/url/url.go encoding/json/decode.go text/template/exec.go bufio/scan.go sort/sort.go; do
  cp "$src/$f" "$out/$(basename "$f")"
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here" && GOFLAGS=-mod=mod GO111MODULE=off go build -o "$tmp/go_functions" go_functions.go)
(cd "$out" && "$tmp/go_functions" strings.go url.go decode.go exec.go scan.go sort.go) > "$out/expected.json"
echo "go $(go env GOVERSION): $(grep -c '"name"' "$out/expected.json") functions in $out/expected.json"
