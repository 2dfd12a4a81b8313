#!/usr/bin/env bash
# Runs units of Redis's own Tcl test suite against kvserver and prints each unit's passed/failed
# counts. Not part of CTest (slow, and it needs a Redis 7.0.15 source tree); REPORT.md has the
# last results and the reason for every remaining failure.
#
# Usage: tests/redis-suite/run.sh [--normal | --external] <redis-source-dir> [unit ...]
#   <redis-source-dir>  a checkout of github.com/redis/redis at tag 7.0.15 (this script fetches
#                       nothing; e.g. `git -C <redis-clone> worktree add /tmp/redis-suite 7.0.15`).
#                       It is only read: the suite runs in a scratch copy.
#   --normal            the suite's own mode: it starts servers itself from its configuration
#                       files (tests/assets/default.conf, ...) as src/redis-server, here kvserver,
#                       with Debian's redis-cli, redis-benchmark and redis-check-* as src/'s other
#                       tools. Default units: see NORMAL_UNITS below.
#   --external          (the default) one fresh kvserver per unit, the suite in external-server
#                       mode, tests that need a server of their own skipped by tag. Default units:
#                       unit/type/string unit/type/incr unit/keyspace unit/expire unit/bitops.
# Environment: KVSERVER (default: build/server/kvserver, built with scripts/build.sh if missing),
#              KV_SUITE_LOGS (default: a new temporary directory) keeps each unit's output (and
#              in external mode the server's log; in normal mode the suite keeps the servers'
#              logs under the scratch copy's tests/tmp, in KV_SUITE_LOGS/suite).
#              KV_SUITE_CLIENTS (default 2): the suite's --clients in normal mode.
#              KV_SUITE_BASEPORT: the suite's --baseport (its own listening port is 32 below), for
#              runs side by side with another suite on the same machine.
# Needs tclsh (apt-get install tcl).
#
# Normal mode's src/redis-server is a small wrapper around kvserver (exec -a, so that it runs
# under the suite's name for it); the suite's configuration files reach kvserver unchanged.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

mode=external
case "${1:-}" in
  --normal) mode=normal; shift ;;
  --external) shift ;;
esac
suite=${1:?usage: $0 [--normal|--external] <redis-source-dir> [unit ...]}
suite=$(cd "$suite" && pwd)
shift
units=("$@")

NORMAL_UNITS=(unit/printver unit/type/string unit/type/incr unit/keyspace unit/expire unit/bitops
  unit/info unit/info-command unit/introspection unit/introspection-2 unit/latency-monitor
  unit/querybuf unit/limits unit/protocol unit/auth unit/quit unit/slowlog unit/other
  unit/oom-score-adj unit/shutdown unit/networking integration/logging)
if [ ${#units[@]} -eq 0 ]; then
  if [ "$mode" = normal ]; then
    units=("${NORMAL_UNITS[@]}")
  else
    units=(unit/type/string unit/type/incr unit/keyspace unit/expire unit/bitops)
  fi
fi
[ -x "$suite/runtest" ] || { echo "no runtest in $suite" >&2; exit 2; }
command -v tclsh >/dev/null || { echo "tclsh is needed (apt-get install tcl)" >&2; exit 2; }

kvserver=${KVSERVER:-$root/build/server/kvserver}
if [ ! -x "$kvserver" ]; then
  KV_JOBS=${KV_JOBS:-2} "$root/scripts/build.sh" "$root/build" >/dev/null
fi
kvserver=$(cd "$(dirname "$kvserver")" && pwd)/$(basename "$kvserver")
logs=${KV_SUITE_LOGS:-$(mktemp -d /tmp/kv-redis-suite.XXXXXX)}
mkdir -p "$logs"

pid=
cleanup() { if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi; }
trap cleanup EXIT

# Counts a unit's results in its (colour-stripped) output.
count() {
  local out=$1
  sed -i 's/\x1b\[[0-9;]*m//g' "$out"
  ok=$(grep -c '^\[ok\]:' "$out" || true)
  err=$(grep -cE '^\[(err|exception)\]:' "$out" || true)
  skipped=$(grep -cE '^\[(skip|ignore)\]:' "$out" || true)
}

# The suite's src/ in the scratch copy: kvserver as redis-server, Debian's tools for the others.
write_server_wrapper() {
  local src=$1
  mkdir -p "$src"
  cat >"$src/redis-server" <<EOF
#!/usr/bin/env bash
# kvserver as the suite's redis-server (written by kvserver's tests/redis-suite/run.sh), under
# this name (exec -a), as a redis-server symlink to kvserver would run it; exec keeps the pid the
# suite waits for.
exec -a "\$0" "$kvserver" "\$@"
EOF
  chmod +x "$src/redis-server"
  for tool in redis-cli redis-benchmark redis-check-aof redis-check-rdb; do
    local path
    path=$(command -v "$tool" || true)
    [ -n "$path" ] || { echo "$tool is needed (apt-get install redis-tools)" >&2; exit 2; }
    ln -sf "$path" "$src/$tool"
  done
}

# The suite waits up to two minutes for a server it started to print " PID: <pid>", even when
# the server has already exited. kvserver exits at once when a test asks for a feature it does
# not have yet (replicaof, aclfile, cluster mode, ...), so the scratch copy's
# wait_server_started also stops waiting when the process is gone; the suite then reports the
# start-up failure as usual, with the server's standard error. Nothing else changes.
patch_wait_for_start() {
  local file=$1
  grep -q 'regexp -- " PID: $pid"' "$file" || { echo "unexpected $file" >&2; exit 2; }
  perl -0pi -e 's/(        if \{\[regexp -- " PID: \$pid" \[exec cat \$stdout\]\]\} \{\n            break\n        \}\n)/$1        if {[catch {exec kill -0 \$pid}]} { break }  ;# kvserver run.sh: the server exited\n/' "$file"
  grep -q 'kvserver run.sh: the server exited' "$file" || { echo "could not patch $file" >&2; exit 2; }
}

total_ok=0
total_err=0
if [ "$mode" = normal ]; then
  scratch=$logs/suite
  rm -rf "$scratch"
  mkdir -p "$scratch"
  cp -r "$suite/runtest" "$suite/tests" "$scratch/"
  rm -rf "$scratch/tests/tmp"
  mkdir -p "$scratch/tests/tmp"
  patch_wait_for_start "$scratch/tests/support/server.tcl"
  write_server_wrapper "$scratch/src"
  # "refused": servers the unit asked for that kvserver refused to start (a missing feature).
  printf '%-26s %6s %6s %8s\n' unit passed failed refused
  for unit in "${units[@]}"; do
    name=${unit//\//_}
    out="$logs/$name.out"
    (cd "$scratch" && ./runtest --single "$unit" --clients "${KV_SUITE_CLIENTS:-2}" --durable \
      --timeout 600 --dump-logs ${KV_SUITE_BASEPORT:+--baseport "$KV_SUITE_BASEPORT"}) >"$out" 2>&1 ||
      true
    count "$out"
    # The suite reports each server it could not start ("Can't start the Redis server") as an
    # error and goes on with the unit's next block.
    refused=$(grep -c "Can't start the Redis server" "$out" || true)
    printf '%-26s %6s %6s %8s\n' "$unit" "$ok" "$err" "$refused"
    total_ok=$((total_ok + ok))
    total_err=$((total_err + err))
  done
  printf '%-26s %6s %6s\n' total "$total_ok" "$total_err"
  echo "outputs: $logs (the suite's scratch copy and server logs: $scratch/tests/tmp)"
  exit 0
fi

printf '%-20s %6s %6s\n' unit passed failed
for unit in "${units[@]}"; do
  name=${unit//\//_}
  server_log="$logs/$name.server.log"
  # A fresh server on a free port; DEBUG is allowed so that the suite's DEBUG LOG markers land in
  # the server log. The port is named (not --port 0, kvserver's "any free port"): tests read
  # CONFIG GET port and set it back, and in Redis port 0 means no TCP listener at all.
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  # Its working directory (dump.rdb of the unit's SAVE tests) is the unit's own, under $logs; no
  # save points, so that no BGSAVE starts in the middle of a test.
  mkdir -p "$logs/$name.dir"
  : >"$server_log"  # exists before the wait below reads it
  "$kvserver" --port "$port" --enable-debug-command yes --dir "$logs/$name.dir" --save "" \
    >"$server_log" 2>&1 &
  pid=$!
  started=
  for _ in $(seq 100); do
    grep -q "Ready to accept connections" "$server_log" && { started=1; break; }
    sleep 0.1
  done
  [ -n "$started" ] || { echo "kvserver did not start for $unit; see $server_log" >&2; exit 1; }
  out="$logs/$name.out"
  (cd "$suite" && ./runtest --host 127.0.0.1 --port "$port" --single "$unit" --clients 1 \
    --tags -needs:repl --tags -needs:debug --tags -needs:local-process \
    --ignore-encoding --ignore-digest --durable --timeout 600 \
    ${KV_SUITE_BASEPORT:+--baseport "$KV_SUITE_BASEPORT"}) >"$out" 2>&1 || true
  count "$out"
  printf '%-20s %6s %6s\n' "$unit" "$ok" "$err"
  total_ok=$((total_ok + ok))
  total_err=$((total_err + err))
  cleanup
  pid=
done
printf '%-20s %6s %6s\n' total "$total_ok" "$total_err"
echo "outputs and server logs: $logs"
