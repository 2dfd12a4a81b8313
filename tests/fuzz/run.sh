#!/usr/bin/env bash
# Runs each fuzz target for a bounded time from its committed seed corpus, and fails on any
# crash, sanitizer report, leak, timeout (10 s for one input) or memory use past 2 GB.
# Usage: tests/fuzz/run.sh BUILD_DIR [SECONDS_PER_TARGET] [TARGET ...]
#   BUILD_DIR: a build directory configured with -DKV_BUILD_FUZZ=ON
#   SECONDS_PER_TARGET: default $KV_FUZZ_SECONDS, else 60
#   TARGET: resp_parser_fuzz, request_fuzz, rdb_fuzz (default all)
# KV_FUZZ_JOBS targets run at once (default 2).
# What the fuzzer finds (new inputs, a crashing input) goes to $KV_FUZZ_WORK (default a
# temporary directory, removed when all passed); the committed corpus is only read.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
seconds=${2:-${KV_FUZZ_SECONDS:-60}}
shift $(($# >= 2 ? 2 : 1))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(resp_parser_fuzz request_fuzz rdb_fuzz)
work=$(realpath -m "${KV_FUZZ_WORK:-$(mktemp -d)}")
export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# Each target has a core and its full time, as when they ran one after the other.
jobs=${KV_FUZZ_JOBS:-2}
fuzz() {
  local target=$1
  local dict=()
  [ -f "$here/$target.dict" ] && dict=(-dict="$here/$target.dict")
  # Run from the work directory: what a fuzz input makes the server write (SAVE's dump.rdb, ...)
  # lands there, not in the checkout.
  cd "$work/$target" &&
    exec "$build/tests/fuzz/$target" -max_total_time="$seconds" -rss_limit_mb=2048 \
      -timeout=10 -print_final_stats=1 -artifact_prefix="$work/$target/artifacts/" \
      "${dict[@]}" "$work/$target/corpus" "$here/corpus/$target" >"$work/$target/log" 2>&1
}
for target in "${targets[@]}"; do
  mkdir -p "$work/$target/corpus" "$work/$target/artifacts"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  echo "== fuzz $target for ${seconds}s"
  (if (fuzz "$target"); then echo 0; else echo 1; fi >"$work/$target/status") &
done
wait

status=0
for target in "${targets[@]}"; do
  echo "== $target"
  if [ "$(cat "$work/$target/status")" = 0 ]; then
    grep -E '^#[0-9]+.*DONE|stat::number_of_executed_units|stat::average_exec_per_sec' \
      "$work/$target/log" || true
  else
    status=1
    echo "$target FAILED; the input that failed is in $work/$target/artifacts:"
    ls "$work/$target/artifacts"
    tail -n 80 "$work/$target/log"
  fi
done
if [ $status -eq 0 ] && [ -z "${KV_FUZZ_WORK:-}" ]; then rm -rf "$work"; fi
exit $status
