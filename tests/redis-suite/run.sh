#!/usr/bin/env bash
# Runs units of Redis's own Tcl test suite against kvserver, one fresh kvserver per unit (the suite
# leaves configuration changed behind it), and prints each unit's passed/failed counts.
#
# Usage: tests/redis-suite/run.sh <redis-source-dir> [unit ...]
#   <redis-source-dir>  a checkout of github.com/redis/redis at tag 7.0.15 (this script fetches
#                       nothing; e.g. `git -C <redis-clone> worktree add /tmp/redis-suite 7.0.15`)
#   unit                default: unit/type/string unit/type/incr unit/keyspace unit/expire
#                       unit/bitops
# Environment: KVSERVER (default: build/server/kvserver, built with scripts/build.sh if missing),
#              KV_SUITE_LOGS (default: a new temporary directory) keeps each unit's output and
#              server log.
# Needs tclsh. Tests that need replication, DEBUG RELOAD/digests, persistence or a server process
# the suite starts itself are skipped by tag, as the suite's own external-server mode requires.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
suite=${1:?usage: $0 <redis-source-dir> [unit ...]}
suite=$(cd "$suite" && pwd)
shift
units=("$@")
[ ${#units[@]} -gt 0 ] ||
  units=(unit/type/string unit/type/incr unit/keyspace unit/expire unit/bitops)
[ -x "$suite/runtest" ] || { echo "no runtest in $suite" >&2; exit 2; }
command -v tclsh >/dev/null || { echo "tclsh is needed (apt-get install tcl)" >&2; exit 2; }

kvserver=${KVSERVER:-$root/build/server/kvserver}
if [ ! -x "$kvserver" ]; then
  KV_JOBS=${KV_JOBS:-2} "$root/scripts/build.sh" "$root/build" >/dev/null
fi
logs=${KV_SUITE_LOGS:-$(mktemp -d /tmp/kv-redis-suite.XXXXXX)}
mkdir -p "$logs"

pid=
cleanup() { if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi; }
trap cleanup EXIT

total_ok=0
total_err=0
printf '%-20s %6s %6s\n' unit passed failed
for unit in "${units[@]}"; do
  name=${unit//\//_}
  server_log="$logs/$name.server.log"
  # A fresh server on a free port; DEBUG is allowed so that the suite's DEBUG LOG markers land in
  # the server log.
  "$kvserver" --port 0 --enable-debug-command yes >"$server_log" 2>&1 &
  pid=$!
  port=
  for _ in $(seq 100); do
    port=$(sed -n 's/.*Listening on tcp 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$server_log" | head -1)
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || { echo "kvserver did not start for $unit; see $server_log" >&2; exit 1; }
  out="$logs/$name.out"
  (cd "$suite" && ./runtest --host 127.0.0.1 --port "$port" --single "$unit" --clients 1 \
    --tags -needs:repl --tags -needs:debug --tags -needs:save --tags -needs:local-process \
    --ignore-encoding --ignore-digest --durable --timeout 600) >"$out" 2>&1 || true
  # The suite colours its status words; strip the escapes before counting.
  sed -i 's/\x1b\[[0-9;]*m//g' "$out"
  ok=$(grep -c '^\[ok\]:' "$out" || true)
  err=$(grep -cE '^\[(err|exception)\]:' "$out" || true)
  printf '%-20s %6s %6s\n' "$unit" "$ok" "$err"
  total_ok=$((total_ok + ok))
  total_err=$((total_err + err))
  cleanup
  pid=
done
printf '%-20s %6s %6s\n' total "$total_ok" "$total_err"
echo "outputs and server logs: $logs"
