#!/usr/bin/env bash
# Which commit made the captured engine's bytes differ from the bound engine's on CUDA: capture-check (loop+stream)
# built at each commit (.cache/device-bundle-xz/bisect/cc-<commit>.js.xz, made here by bisect-build.sh), oldest
# first, then the bundle's own capture-check twice. Each line is written to $OUT/bisect.log as it finishes.
#   source .device/setup.sh > /dev/null; COMMITS="779c135 817839f" bash scripts/device/bisect-capture.sh
set -uo pipefail
: "${OUT:?set OUT}"
cd "$(dirname "$0")/../.."
source scripts/device/use-bundle.sh
built=$(built_model "$OUT" 2>> "$OUT/model.txt")
cat "$OUT/model.txt"
check() { # name, script, extra args...
  local name=$1 js=$2 t; shift 2
  t=$(date +%s)
  timeout -k 10 "${CHECK_TIMEOUT_S:-100}" node "$js" --model "$built" --provider cuda --only loop+stream "$@" > "$OUT/cc-$name.log" 2>&1
  echo "=== $name rc=$? in $(( $(date +%s) - t )) s: $(grep -E '^loop' "$OUT/cc-$name.log" | tr '\n' ' ' | cut -c1-300)" | tee -a "$OUT/bisect.log"
  grep -iE 'error' "$OUT/cc-$name.log" | grep -v cudnnDestroy | head -2 | cut -c1-200
}
for c in ${COMMITS:-}; do
  xz -dc ".cache/device-bundle-xz/bisect/cc-$c.js.xz" > ".cache/device-bundle/cc-$c.js"
  check "$c" ".cache/device-bundle/cc-$c.js" ${CONFIG:+--config "$CONFIG"}
done
[ -n "${HEAD_TWICE:-}" ] && check head-twice .cache/device-bundle/capture-check.js --twice ${CONFIG:+--config "$CONFIG"}
exit 0
