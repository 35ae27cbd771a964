#!/usr/bin/env bash
# Diagnoses the C-API adapter on a GPU machine: the stage lab bench (runtime-bench.js) per variant in
# its own process, with every C-API call traced to stderr (STUDIO_CAPI_TRACE=1), so a native crash
# names its last call; WebGPU also with every call on the main thread (STUDIO_CAPI_SYNC=1). Carrying
# .device .cache/device-bundle .cache/device-nm .cache/cuda-chunks/SHA256SUMS (chunks sent before):
#   source .device/setup.sh > /dev/null && bash scripts/device/capi-debug.sh
set -uo pipefail
: "${OUT:?set OUT}"
cd "$(dirname "$0")/../.."
source scripts/device/use-bundle.sh
size=${SIZE:-tiny}
[ -d "$work/ckpt-$size" ] || studio model synth --size "$size" --seed 1 --out "$work/ckpt-$size" > "$OUT/synth.log" 2>&1
studio model build --checkpoint "$work/ckpt-$size" --dtype fp16 --out "$work/built" > "$OUT/build.log" 2>&1
built=$(ls -d "$work"/built/*-fp16 | head -1)
echo "model: $built"
one() { # name variant env...
  local name=$1 variant=$2; shift 2
  env "$@" timeout -k 10 "${T:-90}" node .cache/device-bundle/runtime-bench.js --model "$built" --runs 5 --out "$OUT/rt-$name" --variants "$variant" > "$OUT/$name.log" 2>&1
  local rc=$?
  echo "=== $name rc=$rc"
  grep -v '^capi> ' "$OUT/$name.log" | tail -8 | cut -c1-400
  grep '^capi> ' "$OUT/$name.log" | tail -4
}
for v in ${VARIANTS:-webgpu-capi cuda cuda-graph webgpu-capture}; do
  one "$v" "$v" STUDIO_CAPI_TRACE=1
done
[ -n "${SYNC:-1}" ] && one webgpu-capi-sync webgpu-capi STUDIO_CAPI_TRACE=1 STUDIO_CAPI_SYNC=1
