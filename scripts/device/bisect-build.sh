#!/usr/bin/env bash
# Run here (not on the GPU machine): builds capture-check at each commit in COMMITS with esbuild, as bundle.sh builds
# it, into .cache/device-bundle-xz/bisect/cc-<commit>.js.xz, which bisect-capture.sh runs on the GPU machine. Each
# commit is checked out in a temporary worktree that borrows this checkout's node_modules.
#   COMMITS="779c135 817839f" bash scripts/device/bisect-build.sh
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
: "${COMMITS:?name the commits to build, e.g. COMMITS=\"779c135 817839f\"}"
out=$PWD/.cache/device-bundle-xz/bisect
mkdir -p "$out"
for c in $COMMITS; do
  wt=$(mktemp -d)
  git worktree add -q --detach "$wt" "$c"
  ln -s "$PWD/node_modules" "$wt/node_modules"
  (cd "$wt" && node_modules/.bin/esbuild lab/gpu/capture-check.ts --bundle --platform=node --format=esm --target=node20 \
    --outfile="$wt/cc.js" --external:onnxruntime-node --external:better-sqlite3 --external:koffi --log-level=warning \
    --banner:js="import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);")
  xz -T0 -6 -c "$wt/cc.js" > "$out/cc-$c.js.xz"
  git worktree remove --force "$wt"
  echo "built $out/cc-$c.js.xz"
done
