#!/usr/bin/env bash
# Installs what is missing, builds kvserver and runs every test: unit, integration, differential
# against real redis-server, and the tool and client tests. In between, installs kvserver into a
# temporary prefix and builds and runs examples/embedded against the installed CMake package.
# Then builds everything again with clang, AddressSanitizer + UndefinedBehaviorSanitizer and
# libFuzzer's coverage instrumentation (build-sanitize) and runs every test there too (the
# sanitized kvserver binary driven by real redis-server comparisons, redis-cli, redis-benchmark
# and the client libraries), failing on any sanitizer report, including ones from the kvserver
# processes the tests start; KV_SKIP_SANITIZE=1 skips those tests.
# Last, runs each libFuzzer target of that same build for KV_FUZZ_SECONDS (default 60) from the
# committed seed corpus, failing on any crash, leak or timeout; KV_SKIP_FUZZ=1 skips that.
# One sanitized build serves both, so CI compiles the project twice, not three times.
# ctest runs KV_TEST_JOBS tests at once (default 2): most tests wait on sockets and processes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${KV_TEST_JOBS:-2}
stage_start=$SECONDS
stage() {
  echo "== [$((SECONDS - stage_start)) s] $*"
}
"$root/scripts/setup.sh"

stage "build (RelWithDebInfo)"
"$root/scripts/build.sh" "$root/build" -DKV_BUILD_BENCH=ON
stage "tests"
(cd "$root/build" && ctest -j"$jobs" --output-on-failure --timeout 300)
stage "package: install into a temporary prefix, build and run examples/embedded against it"
"$root/scripts/test-package.sh" "$root/build"

status=0
if [ "${KV_SKIP_SANITIZE:-0}" != "1" ] || [ "${KV_SKIP_FUZZ:-0}" != "1" ]; then
  stage "build (clang, ASan + UBSan + libFuzzer coverage)"
  tests=ON
  [ "${KV_SKIP_SANITIZE:-0}" != "1" ] || tests=OFF
  "$root/scripts/build.sh" "$root/build-sanitize" -DKV_BUILD_FUZZ=ON -DKV_BUILD_TESTS=$tests
fi
if [ "${KV_SKIP_SANITIZE:-0}" != "1" ]; then
  reports=$(mktemp -d)
  stage "tests under ASan + UBSan (all of them)"
  # Every kvserver the tests start (the build's own, sanitized binary) inherits these, so its
  # reports land in $reports too. The other processes the tests start (redis-server, redis-cli,
  # redis-benchmark, python3, node) are not sanitized and ignore them.
  (cd "$root/build-sanitize" &&
     ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1:abort_on_error=0" \
     UBSAN_OPTIONS="log_path=$reports/ubsan:print_stacktrace=1:halt_on_error=1" \
     ctest -j"$jobs" --output-on-failure --timeout 600) || status=1
  if compgen -G "$reports/*" >/dev/null; then
    echo "Sanitizer reports:"
    cat "$reports"/*
    status=1
  fi
  rm -rf "$reports"
fi

if [ "${KV_SKIP_FUZZ:-0}" != "1" ]; then
  stage "fuzz each target for ${KV_FUZZ_SECONDS:-60}s"
  "$root/tests/fuzz/run.sh" "$root/build-sanitize" || status=1
fi
stage "done"
exit $status
