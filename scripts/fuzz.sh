#!/usr/bin/env bash
# Builds one libFuzzer target (tests/fuzz) with clang, ASan and UBSan in build-fuzz and runs it for
# MINUTES on a scratch copy of its seed corpus (the checked-in corpus is not modified). Prints the
# number of executions and executions per second; exits non-zero if the fuzzer found a crash, a
# sanitizer report or a violated invariant (the input is saved in build-fuzz/fuzz-artifacts/).
#   scripts/fuzz.sh protocol 10
#   scripts/fuzz.sh engine_unterm_baum 30 -max_len=8192     (extra arguments go to libFuzzer)
# Targets: protocol, engine_happy_holidays, engine_unterm_baum, engine_christmas_penguins, http.
# Reproduce a saved input: build-fuzz/tests/fuzz/fuzz_<target> <file>
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ $# -lt 2 ]]; then
  echo "usage: $0 TARGET MINUTES [libFuzzer flags...]" >&2
  exit 2
fi
target=$1 minutes=$2
shift 2
corpus=$root/tests/fuzz/corpus/$target
[[ -d "$corpus" ]] || { echo "fuzz: no target '$target' (no $corpus)" >&2; exit 2; }
build=${TINSEL_FUZZ_BUILD_DIR:-$root/build-fuzz}

"$root/docker/install-deps.sh" "$root/docker/packages.txt" "$root/docker/dev-packages.txt"
# tests/CMakeLists.txt looks for Node.js (the browser and schema tests); fuzzing does not need it.
node_flag=()
command -v node >/dev/null || command -v nodejs >/dev/null || node_flag=(-DTINSEL_NODE=node-not-needed-for-fuzzing)
CXX=${CXX:-clang++} cmake -S "$root" -B "$build" -G Ninja -DTINSEL_BUILD_TESTS=ON -DTINSEL_FUZZ=ON \
  -DTINSEL_SANITIZE=address "${node_flag[@]}" >/dev/null
cmake --build "$build" -j "${TINSEL_JOBS:-2}" --target "fuzz_$target"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/tinsel-fuzz-$target.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
cp "$corpus"/* "$scratch"/
mkdir -p "$build/fuzz-artifacts"
log=$build/fuzz-$target.log
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
status=0
"$build/tests/fuzz/fuzz_$target" -max_total_time=$((minutes * 60)) -print_final_stats=1 \
  -artifact_prefix="$build/fuzz-artifacts/$target-" "$@" "$scratch" 2>&1 | tee "$log" || status=$?
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
echo "fuzz: $target: $runs executions in $minutes min ($rate exec/s), exit status $status" \
     "$([[ $status -eq 0 ]] && echo "(no crash)" || echo "(CRASH: see $build/fuzz-artifacts)")"
exit "$status"
