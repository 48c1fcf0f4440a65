# Shared by scripts/run.sh and scripts/test.sh: install missing packages, configure and build.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${TINSEL_BUILD_DIR:-$root/build}

tinsel_build() {
  "$root/docker/install-deps.sh"
  local werror=OFF
  [[ "${CI:-}" == "true" ]] && werror=ON
  cmake -S "$root" -B "$build_dir" -G Ninja -DTINSEL_WERROR=$werror "$@" >/dev/null
  cmake --build "$build_dir" -j "$(nproc)"
}
