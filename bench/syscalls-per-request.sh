#!/bin/bash
# System calls per request of a server under redis-benchmark, by kind (perf's syscall
# tracepoints: root, or kernel.perf_event_paranoid <= 1). Deterministic where CPU time is not:
# what issue 13-15's unpipelined CPU targets hinge on is the calls per request/reply exchange.
#   bench/syscalls-per-request.sh <server binary> <redis-benchmark test> <clients> [requests]
# e.g. bench/syscalls-per-request.sh build/server/kvserver set 50
#      bench/syscalls-per-request.sh "$(command -v redis-server)" set 50
set -euo pipefail
binary=$1 test=$2 clients=$3 requests=${4:-50000}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$binary" --port "$port" --bind 127.0.0.1 --save "" --appendonly no >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.05; done
out=$(mktemp)
perf stat -x, -o "$out" -p "$server" -e raw_syscalls:sys_enter,syscalls:sys_enter_epoll_wait,\
syscalls:sys_enter_epoll_ctl,syscalls:sys_enter_read,syscalls:sys_enter_recvfrom,\
syscalls:sys_enter_write,syscalls:sys_enter_sendto &
perf=$!
sleep 0.3
redis-benchmark -p "$port" -n "$requests" -c "$clients" -t "$test" -q >/dev/null
kill -INT $perf
wait $perf || true
awk -F, -v n="$requests" '$1 ~ /^[0-9]+$/ {printf "%-32s %6.2f per request\n", $3, $1 / n}' "$out"
rm -f "$out"
