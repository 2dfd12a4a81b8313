#!/usr/bin/env bash
# Installs everything kvserver needs to build, test and benchmark on Debian 12.
# Idempotent: packages already present are skipped, so repeated runs are fast.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libboost1.81-dev libabsl-dev libspdlog-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev libhiredis-dev liblzf-dev libmimalloc-dev
  redis-server redis-tools
  clang-14 libclang-rt-14-dev
  clang-format-14 procps python3 gnuplot-nox iproute2
  python3-redis
  liblua5.1-0-dev lua-cjson-dev lua-bitop-dev
  tcl  # tests/redis-suite/run.sh: Redis's own Tcl test suite, run outside CI
  linux-perf  # bench/syscalls-per-request.sh (perf stat), run outside CI
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The packaged redis-server may start itself as a service on 6379; the tests start their own
# instances on ephemeral ports, so a running service does no harm, but it is not needed.

# The client compatibility tests (tests/clients) run real Node.js client libraries, pinned by the
# committed package-lock.json; install them once here so tests never download. Reinstalled only
# when node_modules is missing or the lock file changed. ioredis 6 and redis 6 need Node.js >= 20.
node_dir="$(cd "$(dirname "$0")/.." && pwd)/tests/clients/node"
if ! command -v npm >/dev/null; then
  echo "setup: npm (Node.js >= 20) is needed for tests/clients/node; install Node.js 20" >&2
  exit 1
fi
lock_sum="$(sha256sum "$node_dir/package-lock.json" | cut -d' ' -f1)"
stamp="$node_dir/node_modules/.kvserver-lock-sha256"
if [ "$(cat "$stamp" 2>/dev/null)" != "$lock_sum" ]; then
  echo "setup: installing the client libraries of tests/clients/node"
  npm ci --prefix "$node_dir" --no-audit --no-fund
  echo "$lock_sum" >"$stamp"
fi
