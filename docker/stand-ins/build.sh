#!/usr/bin/env bash
# Builds one stand-in for a third-party image docker-compose.yml names, where no registry serves images: the
# stand-in's Containerfile (docker/stand-ins/<stand-in>/) on a plain Debian base made from the rootfs that
# docker/base/build-node-base.sh caches, tagged with the compose file's name for the image.
#
#   docker/stand-ins/build.sh <stand-in> <image> [file ...]    files (binaries) are copied into the build context
#
# Prints the image name. Cached: the image is rebuilt only when it is missing or its inputs (the stand-in's
# directory, the files, the base) changed; the label referee.stand-in holds their digest.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export CONTAINERS_CONF=${CONTAINERS_CONF:-$root/docker/podman/containers.conf}
stand_in=${1:?usage: build.sh <stand-in> <image> [file ...]}
image=${2:?usage: build.sh <stand-in> <image> [file ...]}
shift 2
[ -f "$here/$stand_in/Containerfile" ] || {
  echo "build.sh: no stand-in $stand_in in $here" >&2
  exit 1
}
suite=${DEBIAN_SUITE:-bookworm}
cache=${REFEREE_IMAGES_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/referee/images}
base="localhost/referee-debian:$suite"
say() { echo "stand-ins: $*" >&2; }

# The plain Debian base: the rootfs tar, with this machine's Debian sources (the mirror and suites it reaches).
if ! podman image exists "$base"; then
  rootfs_tar="$cache/debian-${suite}-minbase.tar"
  [ -s "$rootfs_tar" ] || "$root/docker/base/build-node-base.sh" >/dev/null
  say "importing $base"
  work=$(mktemp -d "$cache/debian.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  tar -C "$work" -xf "$rootfs_tar"
  if [ -s /etc/apt/sources.list.d/debian.sources ]; then
    cp /etc/apt/sources.list.d/debian.sources "$work/etc/apt/sources.list.d/debian.sources"
    rm -f "$work/etc/apt/sources.list"
  fi
  tar -C "$work" --numeric-owner -c . | podman import \
    --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change "ENV DEBIAN_FRONTEND=noninteractive" \
    --change 'CMD ["bash"]' \
    - "$base" >/dev/null
  rm -rf "$work"
  trap - EXIT
fi

context=$(mktemp -d "${TMPDIR:-/tmp}/referee-stand-in.XXXXXX")
trap 'rm -rf "$context"' EXIT
cp -a "$here/$stand_in/." "$context/"
for file in "$@"; do cp "$file" "$context/"; done
digest=$(
  {
    podman image inspect --format '{{.Id}}' "$base"
    (cd "$context" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
  } | sha256sum | cut -c1-16
)
if [ "$(podman image inspect --format '{{index .Labels "referee.stand-in"}}' "$image" 2>/dev/null)" = "$digest" ]; then
  echo "$image"
  exit 0
fi
say "building $image from docker/stand-ins/$stand_in"
# Host networking: apt-get inside the build reaches the Debian mirror the way this machine does.
podman build --network host --build-arg "BASE=$base" --label "referee.stand-in=$digest" \
  --file "$context/Containerfile" --tag "$image" "$context" >&2
echo "$image"
