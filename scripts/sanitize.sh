#!/usr/bin/env bash
# Builds everything with sanitizers (clang) in its own build directory and runs the whole CTest
# suite under it: the C++ tests, and the Node.js and browser tests against the sanitized server.
#   scripts/sanitize.sh address        ASan + UBSan (build-asan)
#   scripts/sanitize.sh thread         TSan (build-tsan)
#   scripts/sanitize.sh address -R lobby   (further arguments go to ctest)
# The first report stops the process that hit it, so the test fails; the report is in the test's
# output (ctest --output-on-failure). CXX=g++ works too. TINSEL_JOBS sets the build's and ctest's
# parallelism (default: the number of cores).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/scripts/common.sh"
mode=${1:-}
case "$mode" in
  address) build=${TINSEL_BUILD_DIR:-$root/build-asan} ;;
  thread) build=${TINSEL_BUILD_DIR:-$root/build-tsan} ;;
  *) echo "usage: $0 address|thread [ctest arguments...]" >&2; exit 2 ;;
esac
shift
jobs=${TINSEL_JOBS:-$(nproc)}

"$root/docker/install-deps.sh" "$root/docker/packages.txt" "$root/docker/test-packages.txt" \
  "$root/docker/dev-packages.txt"
tinsel_node_modules
CXX=${CXX:-clang++} cmake -S "$root" -B "$build" -G Ninja -DTINSEL_BUILD_TESTS=ON -DTINSEL_SANITIZE="$mode" \
  -DTINSEL_WERROR=ON >/dev/null
cmake --build "$build" -j "$jobs"

# halt_on_error: the first report ends the process with a failure. Leak checking stays on (ASan).
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$root/tests/sanitizers/tsan.supp"
# Sanitized code runs 2x (ASan) to 10x (TSan) slower: give every test more time.
cd "$build"
ctest --output-on-failure -j "$jobs" --timeout 900 "$@"
