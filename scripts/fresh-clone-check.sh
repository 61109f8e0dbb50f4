#!/usr/bin/env bash
# A newcomer's first hour, on a fresh clone of this repository's HEAD, with the Node.js
# first in PATH: the README's `npm ci` must print no warning or notice; `npm start` must
# serve the README's first curl, `/` and the start log's pointers; `npm run new:operation
# -- stats/trimmed-mean` then `kill -HUP <pid>` (docs/writing-an-operation.md) must serve the new
# operation; SIGTERM to npm's pid must stop node. Run by .ci/run.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/ucs-fresh-clone.XXXXXX")"
npm_pid=""
node_pid=""
cleanup() {
  for pid in $node_pid $npm_pid; do kill -KILL "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "fresh-clone-check: $*" >&2
  if [ -f "$work/start.log" ]; then
    echo "--- npm start's output (last 40 lines) ---" >&2
    tail -n 40 "$work/start.log" >&2
  fi
  exit 1
}
# Polls `$1` (a command) every 0.2 s for at most `$2` seconds.
wait_for() {
  local deadline=$((SECONDS + $2))
  until eval "$1"; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.2
  done
}

echo "== fresh clone: node $(node --version), npm $(npm --version)"
git clone --quiet "$repo" "$work/ucs"
cd "$work/ucs"

# 1. npm ci: nothing but its summary (no install-scripts notice, no EBADENGINE, no warning).
npm ci >"$work/ci.log" 2>&1 || { cat "$work/ci.log" >&2; fail "npm ci failed"; }
if grep -nE '^npm (warn|notice|WARN)|EBADENGINE' "$work/ci.log"; then
  fail "npm ci printed the lines above"
fi

# 2. The README's start, on a free port.
port="$(node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
base="http://127.0.0.1:$port"
PORT="$port" API_KEYS=dev-key npm start >"$work/start.log" 2>&1 &
npm_pid=$!
# The first start compiles: bounded generously on a loaded machine.
wait_for 'curl -fs "$base/health" >/dev/null' 300 || fail "npm start did not answer /health"
wait_for 'grep -q "kill -HUP" "$work/start.log"' 10 || fail "the start log names no pid"
node_pid="$(grep -o 'kill -HUP [0-9]*' "$work/start.log" | head -n 1 | cut -d' ' -f3)"

sum="$(curl -fsS -H 'X-API-Key: dev-key' "$base/v1/math/sum?numbers=0.1,0.2")"
[ "$sum" = '{"result":0.3,"decimal":"0.3","count":2}' ] || fail "README's curl answered $sum"
curl -fsS "$base/" | grep -q '"docs":"/docs"' || fail "GET / does not point to /docs"
grep -q "$base/docs" "$work/start.log" || fail "the start log does not say where the docs are"
grep -q 'keys.sqlite; the first: npx ucs keys create' "$work/start.log" ||
  fail "the start log does not say where the keys are and how to create one"

# 3. docs/writing-an-operation.md: the scaffold, then SIGHUP, serves it.
npm run --silent new:operation -- stats/trimmed-mean >/dev/null
kill -HUP "$node_pid"
wait_for 'grep -q "operations reloaded" "$work/start.log"' 60 || fail "the reload did not finish"
mean="$(curl -fsS -H 'X-API-Key: dev-key' "$base/v1/stats/trimmed-mean?x=0.1")" ||
  fail "stats/trimmed-mean is not served after the reload"
[ "$mean" = '{"result":0.1,"decimal":"0.1"}' ] || fail "stats/trimmed-mean answered $mean"

# 4. SIGTERM to npm's pid stops the server (npm passes it on; the script execs node).
kill -TERM "$npm_pid"
wait_for '! kill -0 "$node_pid" 2>/dev/null' 20 || fail "node $node_pid still runs after SIGTERM to npm"
wait "$npm_pid" || true
npm_pid=""
node_pid=""
echo "== fresh clone: quiet install, README's curl, /, the scaffold served after SIGHUP, clean stop"
