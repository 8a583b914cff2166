#!/usr/bin/env bash
# Runs test files under another date's clock (libfaketime), the tests and every node or git they start, minimal env or
# not (a PATH shim sets the preload again): `bash dev/clock-check.sh 2025-03-01 test/integrations/hooks.test.ts`.
set -euo pipefail
[ $# -ge 2 ] || { echo 'usage: dev/clock-check.sh DATE TEST_FILE...' >&2; exit 2; }
when=$1
shift
lib=$(ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -1 || true)
[ -n "$lib" ] || { echo 'dev/clock-check.sh: libfaketime is missing: apt-get install -y faketime' >&2; exit 2; }
# A relative offset (not a start time): every process sees the same faked now, advancing at the real rate.
offset=$(printf '%+d' $(($(date -u -d "$when" +%s) - $(date +%s))))
shim=$(mktemp -d)
trap 'rm -rf "$shim"' EXIT
for b in node git; do
  printf '#!/bin/sh\nexport LD_PRELOAD=%s FAKETIME=%s FAKETIME_DONT_FAKE_MONOTONIC=1\nexec %s "$@"\n' \
    "$lib" "$offset" "$(command -v "$b")" >"$shim/$b"
done
# rustc and cargo hang at start under libfaketime (waiting on a futex, here): they keep the real clock.
for b in cargo rustc rustup; do
  real=$(command -v "$b" || true)
  [ -z "$real" ] || printf '#!/bin/sh\nunset LD_PRELOAD\nexec %s "$@"\n' "$real" >"$shim/$b"
done
chmod +x "$shim"/*
cd "$(dirname "$0")/.."
export LD_PRELOAD=$lib FAKETIME=$offset FAKETIME_DONT_FAKE_MONOTONIC=1 PATH="$shim:$PATH"
node -e 'console.log(`clock: ${new Date().toISOString()}`)'
npx vitest run --maxWorkers=1 "$@"
