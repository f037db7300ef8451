#!/usr/bin/env bash
# Builds a local stand-in for node:20-bookworm-slim, for machines that reach Debian's mirror and
# the npm registry but not Docker Hub (this project's CI machines): a minimal Debian bookworm from
# debootstrap, with this machine's Node 20 (binary, headers, npm), a `node` user (uid 1000), as the
# official image has, and this machine's certificate authorities. Prints the image's name. Usage: scripts/docker-node-image.sh [name]
set -euo pipefail
name="${1:-atrium-local/node:20-bookworm-slim}"
if docker image inspect "$name" >/dev/null 2>&1; then echo "$name"; exit 0; fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
debootstrap --variant=minbase bookworm "$work/rootfs" http://deb.debian.org/debian >&2

node_prefix="$(node -p "require('path').resolve(process.execPath, '..', '..')")"
mkdir -p "$work/rootfs/usr/local/bin" "$work/rootfs/usr/local/include" "$work/rootfs/usr/local/lib/node_modules"
cp "$(node -p process.execPath)" "$work/rootfs/usr/local/bin/node"
cp -r "$node_prefix/include/node" "$work/rootfs/usr/local/include/node"
cp -r "$node_prefix/lib/node_modules/npm" "$work/rootfs/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/rootfs/usr/local/bin/npx"
chroot "$work/rootfs" /usr/sbin/groupadd --gid 1000 node
chroot "$work/rootfs" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$work/rootfs/var/cache/apt/archives"/*.deb "$work/rootfs/var/lib/apt/lists"/*
# This machine's certificate authorities: where TLS to the registry is intercepted, builds in the
# image must trust what the machine trusts.
mkdir -p "$work/rootfs/etc/ssl/certs"
cp "${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}" "$work/rootfs/etc/ssl/certs/ca-certificates.crt"

tar -C "$work/rootfs" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
  --change 'CMD ["node"]' - "$name" >&2
echo "$name"
