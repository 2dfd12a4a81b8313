#!/usr/bin/env bash
# Proves the packaging: installs kvserver from a build directory into a temporary prefix, builds
# examples/embedded against the installed package (find_package(kvserver CONFIG)) and runs its
# tests. Usage: scripts/test-package.sh [build-dir]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -x "$work/prefix/bin/kvserver"
cmake -S "$root/examples/embedded" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
ninja -C "$work/build" -j"${KV_JOBS:-$(nproc)}" >/dev/null
(cd "$work/build" && ctest --output-on-failure --timeout 120)
