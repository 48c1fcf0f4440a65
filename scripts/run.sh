#!/usr/bin/env bash
# Installs what is missing, builds, and starts the server on port 8080 (override with --port or
# TINSEL_PORT; all flags are passed through). Open the URL it logs. Rooms are journaled in data/.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
tinsel_build -DTINSEL_BUILD_TESTS=OFF
# Games are kept in the repository's data/ folder (wherever this is run from), so a restart keeps them.
export TINSEL_DATA_DIR="${TINSEL_DATA_DIR:-$root/data}"
exec "$build_dir/server/tinsel-server" "$@"
