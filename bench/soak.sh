#!/usr/bin/env bash
# Runs bench/soak.mjs with a descriptor limit high enough for 10,000 connections: this shell's
# limit is inherited by node (one descriptor per client socket) and by the tinsel-server child it
# starts (one per accepted socket). Arguments go to soak.mjs; see bench/README.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# 65536 where allowed; a container without CAP_SYS_RESOURCE stops at its hard limit.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
echo "soak.sh: ulimit -n $(ulimit -n)"
exec node "$here/soak.mjs" "$@"
