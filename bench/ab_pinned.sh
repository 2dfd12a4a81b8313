#!/bin/bash
# A/B of two kvserver builds and redis-server, pinned: each server on CPU 0, redis-benchmark on
# CPU 1, a fresh server per run, in the order base, new, redis, ROUNDS times. Prints the server's
# CPU per request (/proc/PID/schedstat), throughput and latency, and redis-benchmark's own CPU per
# request and share of a CPU: at 95% or more the client, not the server, sets the throughput.
# Pinning removes most of this VM's run-to-run noise (processes migrating between the two CPUs);
# it needs 2 CPUs. KV_AB_PIN=0 runs everything unpinned, as bench/harness.py does by default.
#
# Usage: bench/ab_pinned.sh BASE_KVSERVER NEW_KVSERVER ROUNDS redis-benchmark-args...
# e.g.   bench/ab_pinned.sh /tmp/kvserver.base build/server/kvserver 2 -t set -c 50 -P 16 -n 1000000
set -euo pipefail
base=$1 new=$2 rounds=$3
shift 3
bench_args=("$@")
requests=$(echo "$@" | grep -oP '(?<=-n )\d+')
port=${KV_AB_PORT:-7001}
server_cpu=(taskset -c 0) client_cpu=(taskset -c 1)
if [[ ${KV_AB_PIN:-1} == 0 ]]; then server_cpu=() client_cpu=(); fi

run() {  # name, then the server's command line
  local name=$1
  shift
  "${server_cpu[@]}" "$@" --port "$port" --bind 127.0.0.1 --save "" --appendonly no \
    >/dev/null 2>&1 &
  local pid=$!
  until redis-cli -p "$port" PING >/dev/null 2>&1; do sleep 0.05; done
  local before after out client_times start end
  out=$(mktemp)
  before=$(awk '{print $1}' "/proc/$pid/schedstat")
  start=$(date +%s%N)
  # bash's `time` reports the client's user and system CPU seconds.
  client_times=$({ TIMEFORMAT='%3U %3S' && time "${client_cpu[@]}" redis-benchmark -p "$port" \
    --csv "${bench_args[@]}" >"$out" 2>&1; } 2>&1)
  end=$(date +%s%N)
  after=$(awk '{print $1}' "/proc/$pid/schedstat")
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  # --csv: "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_...","p99_...",...
  tail -1 "$out" | awk -F'","' -v name="$name" -v ns=$(((after - before) / requests)) \
    -v client="$client_times" -v n="$requests" -v wall=$((end - start)) \
    '{split(client, t, " "); c = (t[1] + t[2]) * 1e9
      printf "%-6s %7d ns/req %9.0f rps p50 %s p99 %s client %5.0f ns/req %3.0f%% CPU\n",
             name, ns, $2, $5, $7, c / n, 100 * c / wall}'
  rm -f "$out"
}

for _ in $(seq "$rounds"); do
  run base "$base"
  run new "$new"
  run redis redis-server
done
