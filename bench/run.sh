#!/usr/bin/env bash
# Builds kvserver and runs the side-by-side harness against real redis-server (bench/harness.py):
# the report, raw CSV and charts land in build/bench-report/ unless --out says otherwise.
# Usage: bench/run.sh [--mode full|quick|smoke] [--rounds N] [--only matrix,pipeline,import,latency,threads,sets]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build" >/dev/null
exec python3 "$root/bench/harness.py" --kvserver "$root/build/server/kvserver" "$@"
