#!/usr/bin/env bash
# Runs redis-benchmark against kvserver and against real redis-server on this machine, one after
# the other on loopback, and prints requests per second side by side with the ratio.
# Usage: bench/compare.sh [redis-benchmark options]   (default: -t ping,set,get,incr,mset -c 50 -n 100000)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kvserver=${KVSERVER:-$root/build/server/kvserver}
[ -x "$kvserver" ] || "$root/scripts/build.sh" "$root/build" >/dev/null
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(-t ping,set,get,incr,mset -c 50 -n 100000)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 200); do redis-cli -p "$1" ping >/dev/null 2>&1 && return 0; sleep 0.05; done; return 1; }
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

run() {  # name, command...
  local name=$1; shift
  local port; port=$(free_port)
  "$@" --port "$port" >"$work/$name.log" 2>&1 &
  local pid=$!
  wait_port "$port"
  redis-benchmark -p "$port" --csv "${args[@]}" | tail -n +2 | cut -d, -f1,2 | tr -d '"' >"$work/$name.csv"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

run kvserver "$kvserver" --bind 127.0.0.1
run redis redis-server --bind 127.0.0.1 --save "" --appendonly no

printf '%-22s %14s %14s %8s\n' test kvserver redis-server ratio
paste -d, "$work/kvserver.csv" "$work/redis.csv" |
  awk -F, '{ printf "%-22s %14.0f %14.0f %8.2f\n", $1, $2, $4, $2 / $4 }'
