#!/usr/bin/env bash
# Builds a local stand-in for the renderer image's base, node:22-bookworm-slim, and tags it with that name.
#
# Why it exists: the machine this project is developed on is offline for Docker Hub (only Debian's apt mirror
# and the npm registry are reachable), so `docker build -f render-container/Dockerfile .` cannot pull its base
# image. The stand-in is made the way the official image is: Debian bookworm "minbase" from the apt mirror with
# the slim image's dpkg excludes (no docs, man pages, locales), the Node 22 binary at /usr/local/bin/node and npm
# at /usr/local/lib/node_modules/npm (both copied from this host: `which node`, `which npm`), and a `node` user
# with uid/gid 1000. Wherever Docker Hub is reachable, do not run this: docker pulls the real image.
#
# Needs root (mmdebstrap, chroot) and a running Docker daemon. Run from anywhere:
#   bash scripts/docker-local-base.sh
# Settings (environment): TAG (node:22-bookworm-slim), MIRROR (http://deb.debian.org/debian),
# SECURITY_MIRROR (http://deb.debian.org/debian-security), NODE_BIN (`which node`), and EXTRA_CA_FILE: a PEM
# bundle Node must trust too, when HTTPS leaves this machine through a TLS-inspecting proxy (as it does where
# this was written: `npm ci` in the build stage failed with SELF_SIGNED_CERT_IN_CHAIN without it), e.g.
#   EXTRA_CA_FILE=/etc/ssl/certs/ca-certificates.crt bash scripts/docker-local-base.sh
# It is copied into the stand-in and named by NODE_EXTRA_CA_CERTS there; the Dockerfile itself stays unchanged.
set -euo pipefail

TAG="${TAG:-node:22-bookworm-slim}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
SECURITY_MIRROR="${SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
NODE_BIN="$(readlink -f "${NODE_BIN:-$(command -v node)}")"
NPM_DIR="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
EXTRA_CA_FILE="${EXTRA_CA_FILE:-}"

[ "$(id -u)" -eq 0 ] || { echo "run as root (mmdebstrap and chroot need it)" >&2; exit 1; }
command -v mmdebstrap >/dev/null || { echo "mmdebstrap missing: apt-get install -y mmdebstrap" >&2; exit 1; }
docker info >/dev/null 2>&1 || { echo "no Docker daemon answers (start dockerd first)" >&2; exit 1; }
NODE_VERSION="$("$NODE_BIN" --version)"
case "$NODE_VERSION" in v22.*) ;; *) echo "$NODE_BIN is $NODE_VERSION, not Node 22 (set NODE_BIN to a Node 22 binary)" >&2; exit 1 ;; esac
[ -f "$NPM_DIR/bin/npm-cli.js" ] || { echo "npm not found at $NPM_DIR" >&2; exit 1; }
[ -z "$EXTRA_CA_FILE" ] || [ -f "$EXTRA_CA_FILE" ] || { echo "EXTRA_CA_FILE $EXTRA_CA_FILE not found" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

# The slim variant's dpkg excludes (as docker-library/debian's debuerreotype --slim writes them); they stay in
# the image, so packages the Dockerfile installs later are trimmed the same way.
excludes=(
  "path-exclude=/usr/share/doc/*" "path-include=/usr/share/doc/*/copyright"
  "path-exclude=/usr/share/man/*" "path-exclude=/usr/share/groff/*" "path-exclude=/usr/share/info/*"
  "path-exclude=/usr/share/lintian/*" "path-exclude=/usr/share/linda/*"
  "path-exclude=/usr/share/locale/*" "path-include=/usr/share/locale/locale.alias"
)
dpkgopts=()
for e in "${excludes[@]}"; do dpkgopts+=("--dpkgopt=$e"); done

echo "== mmdebstrap bookworm (minbase) from $MIRROR"
mmdebstrap --variant=minbase --mode=root "${dpkgopts[@]}" bookworm "$rootfs" \
  "deb $MIRROR bookworm main" "deb $MIRROR bookworm-updates main" "deb $SECURITY_MIRROR bookworm-security main"

echo "== Node $NODE_VERSION from $NODE_BIN, npm from $NPM_DIR"
install -D -m 0755 "$NODE_BIN" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules"
cp -a "$NPM_DIR" "$rootfs/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$rootfs/var/lib/apt/lists/"* "$rootfs/var/cache/apt/"*.bin
changes=()
if [ -n "$EXTRA_CA_FILE" ]; then
  echo "== extra CA bundle for Node from $EXTRA_CA_FILE"
  install -D -m 0644 "$EXTRA_CA_FILE" "$rootfs/usr/local/share/local-base/extra-ca.pem"
  changes+=(--change "ENV NODE_EXTRA_CA_CERTS=/usr/local/share/local-base/extra-ca.pem")
fi

echo "== docker import as $TAG"
tar -C "$rootfs" --numeric-owner -cf - . | docker import \
  --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change "ENV NODE_VERSION=${NODE_VERSION#v}" \
  --change 'CMD ["node"]' \
  "${changes[@]}" \
  - "$TAG"
docker run --rm "$TAG" sh -c 'echo "node $(node --version), npm $(npm --version), $(id node)"'
docker image ls "$TAG"
