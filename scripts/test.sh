#!/usr/bin/env bash
# Installs what is missing, builds everything, and runs the whole test suite through CTest.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
"$root/docker/install-deps.sh" "$root/docker/packages.txt" "$root/docker/test-packages.txt"
tinsel_node_modules
tinsel_build -DTINSEL_BUILD_TESTS=ON
cd "$build_dir"
ctest --output-on-failure -j "$(nproc)" "$@"
