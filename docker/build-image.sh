#!/usr/bin/env bash
# Builds Referee's image (the Dockerfile) with podman from a clean clone of the current commit, on the Node.js base
# that docker/base/build-node-base.sh makes here, and tags it `referee:local` (docker-compose.yml's default image).
#
#   docker/build-image.sh [tag]        prints the tag; the build's log goes to stderr
#
# CONTAINERS_CONF defaults to docker/podman/containers.conf (runc, ulimits this kind of machine allows).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tag=${1:-referee:local}
export CONTAINERS_CONF=${CONTAINERS_CONF:-$root/docker/podman/containers.conf}

base=$("$root/docker/base/build-node-base.sh")
context=$(mktemp -d "${TMPDIR:-/tmp}/referee-image.XXXXXX")
trap 'rm -rf "$context"' EXIT
# What is committed, nothing else: the image of a commit is the same on every machine.
git clone --quiet --no-hardlinks "$root" "$context/src" >&2
git -C "$context/src" checkout --quiet "$(git -C "$root" rev-parse HEAD)"
# Host networking: the build's npm reaches the registry the way this machine does.
podman build --network host --build-arg "NODE_IMAGE=$base" --tag "$tag" "$context/src" >&2
echo "$tag"
