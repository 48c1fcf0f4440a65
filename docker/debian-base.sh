#!/usr/bin/env bash
# Makes the debian:12 and debian:12-slim base images from Debian's own mirror, for a machine that
# reaches the Debian mirror but no container registry: debootstrap a minbase bookworm, add the
# apt settings of the official images, and import it into podman (or docker) under both names.
# Needs root and debootstrap. docs/operations.md ("Checking the image: docker/smoke.sh").
#   docker/debian-base.sh [podman|docker] [MIRROR]
set -euo pipefail
engine=${1:-podman}
# The mirror apt uses here (the first http(s) URI of the sources), or deb.debian.org.
mirror=${2:-$(grep -hoE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null |
  awk '{print $2}' | head -n1)}
mirror=${mirror:-http://deb.debian.org/debian}
[[ $(id -u) -eq 0 ]] || { echo "debian-base: needs root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "debian-base: needs debootstrap (apt-get install debootstrap)" >&2; exit 1; }

work=$(mktemp -d /var/tmp/tinsel-debian-base.XXXXXX)
trap 'rm -rf "$work"' EXIT
root=$work/rootfs
echo "debian-base: debootstrap --variant=minbase bookworm from $mirror"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
  { tail -n 30 "$work/debootstrap.log" >&2; exit 1; }

# As in the official images: the full set of suites, and no apt caches left in layers.
rm -f "$root/etc/apt/sources.list"
security=${mirror%/debian}/debian-security
[[ "$security" != "$mirror" ]] || security=http://deb.debian.org/debian-security
cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
chroot "$root" apt-get clean
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/log/* "$root"/tmp/*
tar -C "$root" -c . | $engine import - debian:12
$engine tag debian:12 docker.io/library/debian:12 2>/dev/null || true

# The slim variant: no documentation, manual pages or translations, as the official -slim.
cat >"$root/etc/dpkg/dpkg.cfg.d/docker-slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
EOF
find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
find "$root/usr/share/doc" -depth -mindepth 1 -type d -empty -delete
rm -rf "$root"/usr/share/{man,groff,info,lintian,linda}/*
find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} +
tar -C "$root" -c . | $engine import - debian:12-slim
$engine tag debian:12-slim docker.io/library/debian:12-slim 2>/dev/null || true
$engine images debian
