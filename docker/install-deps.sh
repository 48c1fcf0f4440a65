#!/usr/bin/env bash
# Installs the Debian packages listed in the given files (default: docker/packages.txt) that are
# not installed yet. Idempotent: when everything is present it changes nothing and does not touch
# the network.
#   docker/install-deps.sh                         build and run
#   docker/install-deps.sh docker/test-packages.txt  the test suite's extra packages
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lists=("$@")
[[ ${#lists[@]} -gt 0 ]] || lists=("$here/packages.txt")
mapfile -t wanted < <(cat "${lists[@]}" | grep -v '^\s*#' | grep -v '^\s*$')
missing=()
for p in "${wanted[@]}"; do
  # A node installed outside Debian's own packages (NodeSource's nodejs bundles npm) is kept:
  # Debian's npm package would conflict with it.
  if [[ "$p" == nodejs || "$p" == npm ]] && command -v "${p/nodejs/node}" >/dev/null; then continue; fi
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#wanted[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
