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

# The npm packages of package-lock.json (browser tests, schema checks, example client), installed
# from the npm registry only when node_modules does not match the lock file.
tinsel_node_modules() {
  local stamp="$root/node_modules/.package-lock.json"
  if [[ -f "$stamp" && ! "$root/package-lock.json" -nt "$stamp" ]]; then
    echo "node-deps: node_modules up to date"
    return
  fi
  (cd "$root" && npm ci --no-audit --no-fund)
}
