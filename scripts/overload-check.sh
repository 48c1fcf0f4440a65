#!/usr/bin/env bash
# Runs the whole test suite N times in a row (default 5) while the machine is overloaded: one
# busy loop per core runs beside it, and CTest runs 4 tests per core at once. Stops at the first
# failing run. Use it before a change that touches timing, threads or tests that wait.
#   scripts/overload-check.sh [RUNS] [ctest args...]
# Expects a build with tests (./scripts/test.sh or the README's "Building by hand").
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${TINSEL_BUILD_DIR:-$root/build}
runs=${1:-5}
shift || true
cores=$(nproc)
hogs=()
cleanup() { for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
for ((i = 0; i < cores; i++)); do
  (while :; do :; done) &
  hogs+=($!)
done
for ((run = 1; run <= runs; run++)); do
  echo "overload-check: run $run of $runs (ctest -j $((cores * 4)) beside $cores busy loops)"
  start=$(date +%s)
  if ! (cd "$build_dir" && ctest --output-on-failure -j $((cores * 4)) "$@"); then
    echo "overload-check: run $run failed"
    exit 1
  fi
  echo "overload-check: run $run passed in $(( $(date +%s) - start )) s"
done
echo "overload-check: $runs runs passed"
