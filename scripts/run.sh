#!/usr/bin/env bash
# Installs what is missing, builds, and starts the server on port 8080 (override with --port or
# TINSEL_PORT; all flags are passed through). Open the URL it logs.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
tinsel_build -DTINSEL_BUILD_TESTS=OFF
exec "$build_dir/server/tinsel-server" "$@"
