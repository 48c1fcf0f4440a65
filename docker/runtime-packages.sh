#!/usr/bin/env bash
# Prints the Debian packages that hold the shared libraries the given binaries load (by ldd), one a
# line: what the Dockerfile's runtime stage installs, so the image has the libraries and nothing
# else, and a library added to the build (SQLite for the journal, say) needs no second list.
# Fails if a library belongs to no package.
set -euo pipefail
for bin in "$@"; do
  ldd "$bin" | awk '/=> \//{print $3} /^\s*\/[^ ]+ \(/{print $1}'
done | sort -u | while read -r lib; do
  # Debian 12 merges /lib into /usr/lib: a library is registered under one of the two paths.
  real=$(realpath "$lib")
  pkg=""
  for path in "$lib" "$real" "/usr$lib" "${lib#/usr}" "/usr$real" "${real#/usr}"; do
    pkg=$(dpkg-query -S "$path" 2>/dev/null | head -n1 | cut -d: -f1) && [[ -n "$pkg" ]] && break
  done
  [[ -n "$pkg" ]] || { echo "runtime-packages: no package holds $lib" >&2; exit 1; }
  echo "$pkg"
done | sort -u
