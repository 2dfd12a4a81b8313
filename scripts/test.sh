#!/usr/bin/env bash
# Installs what is missing, builds kvserver and runs every test: unit, integration, differential
# against real redis-server, and the redis-cli/redis-benchmark tool tests. Then builds again with
# AddressSanitizer + UndefinedBehaviorSanitizer and runs the unit and integration tests there,
# failing on any sanitizer report (including ones from kvserver processes the tests start).
# In between, installs kvserver into a temporary prefix and builds and runs examples/embedded
# against the installed CMake package.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"

echo "== build (RelWithDebInfo)"
"$root/scripts/build.sh" "$root/build" -DKV_BUILD_BENCH=ON
echo "== tests"
(cd "$root/build" && ctest --output-on-failure --timeout 300)
echo "== package: install into a temporary prefix, build and run examples/embedded against it"
"$root/scripts/test-package.sh" "$root/build"

if [ "${KV_SKIP_SANITIZE:-0}" != "1" ]; then
  echo "== build (ASan + UBSan)"
  "$root/scripts/build.sh" "$root/build-asan" -DKV_SANITIZE=ON
  reports=$(mktemp -d)
  export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1:abort_on_error=0"
  export UBSAN_OPTIONS="log_path=$reports/ubsan:print_stacktrace=1:halt_on_error=1"
  echo "== tests under ASan + UBSan (unit, integration)"
  status=0
  (cd "$root/build-asan" && ctest --output-on-failure --timeout 600 -L 'unit|integration') || status=$?
  if compgen -G "$reports/*" >/dev/null; then
    echo "Sanitizer reports:"
    cat "$reports"/*
    status=1
  fi
  rm -rf "$reports"
  exit $status
fi
