#!/usr/bin/env bash
# Installs everything kvserver needs to build, test and benchmark on Debian 12.
# Idempotent: packages already present are skipped, so repeated runs are fast.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libboost1.81-dev libabsl-dev libspdlog-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev libhiredis-dev
  redis-server redis-tools
  clang-14 libclang-rt-14-dev
  clang-format-14 procps python3 gnuplot-nox
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
