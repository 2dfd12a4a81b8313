#!/usr/bin/env bash
# Installs what is missing, builds kvserver and runs it in the foreground on port 6380.
# Ctrl-C stops it cleanly. Extra arguments are passed to kvserver (e.g. --loglevel verbose).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build"
exec "$root/build/server/kvserver" "$root/conf/kvserver.conf" --port 6380 "$@"
