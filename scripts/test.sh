#!/usr/bin/env bash
# Installs what is missing, builds everything, and runs the whole test suite through CTest.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
tinsel_build -DTINSEL_BUILD_TESTS=ON
cd "$build_dir"
ctest --output-on-failure -j "$(nproc)" "$@"
