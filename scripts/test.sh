#!/usr/bin/env bash
# Installs what is missing, builds kvserver and runs every test: unit, integration, differential
# against real redis-server, and the tool and client tests. In between, installs kvserver into a
# temporary prefix and builds and runs examples/embedded against the installed CMake package.
# Then builds again with AddressSanitizer + UndefinedBehaviorSanitizer and runs every test there
# too (unit, integration, differential, tools and clients: the sanitized kvserver binary driven by
# real redis-server comparisons, redis-cli, redis-benchmark and the client libraries), failing on
# any sanitizer report, including ones from the kvserver processes the tests start;
# KV_SKIP_SANITIZE=1 skips that.
# Last, builds the libFuzzer targets with clang (build-fuzz) and runs each for KV_FUZZ_SECONDS
# (default 60) from the committed seed corpus, failing on any crash, leak or timeout;
# KV_SKIP_FUZZ=1 skips that.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"

echo "== build (RelWithDebInfo)"
"$root/scripts/build.sh" "$root/build" -DKV_BUILD_BENCH=ON
echo "== tests"
(cd "$root/build" && ctest --output-on-failure --timeout 300)
echo "== package: install into a temporary prefix, build and run examples/embedded against it"
"$root/scripts/test-package.sh" "$root/build"

status=0
if [ "${KV_SKIP_SANITIZE:-0}" != "1" ]; then
  echo "== build (ASan + UBSan)"
  "$root/scripts/build.sh" "$root/build-asan" -DKV_SANITIZE=ON
  reports=$(mktemp -d)
  echo "== tests under ASan + UBSan (all of them)"
  # Every kvserver the tests start (the build's own, sanitized binary) inherits these, so its
  # reports land in $reports too. The other processes the tests start (redis-server, redis-cli,
  # redis-benchmark, python3, node) are not sanitized and ignore them.
  (cd "$root/build-asan" &&
     ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1:abort_on_error=0" \
     UBSAN_OPTIONS="log_path=$reports/ubsan:print_stacktrace=1:halt_on_error=1" \
     ctest --output-on-failure --timeout 600) || status=1
  if compgen -G "$reports/*" >/dev/null; then
    echo "Sanitizer reports:"
    cat "$reports"/*
    status=1
  fi
  rm -rf "$reports"
fi

if [ "${KV_SKIP_FUZZ:-0}" != "1" ]; then
  echo "== build (clang, libFuzzer + ASan + UBSan)"
  "$root/scripts/build.sh" "$root/build-fuzz" -DKV_BUILD_FUZZ=ON -DKV_BUILD_TESTS=OFF
  echo "== fuzz each target for ${KV_FUZZ_SECONDS:-60}s"
  "$root/tests/fuzz/run.sh" "$root/build-fuzz" || status=1
fi
exit $status
