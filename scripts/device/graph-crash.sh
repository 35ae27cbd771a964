#!/usr/bin/env bash
# Issue 35: why CUDA graph replays fail with error 700. Runs the cudagraph engine as shipped, with every
# native call on the main thread (STUDIO_CAPI_SYNC=1) and with one libuv worker (UV_THREADPOOL_SIZE=1),
# then one cudagraph request under compute-sanitizer memcheck. Carry as for gpu-run.sh; on the device:
#   source .device/setup.sh > /dev/null; bash scripts/device/graph-crash.sh
set -uo pipefail
: "${OUT:?set OUT}"
cd "$(dirname "$0")/../.."
export RT=0 WINDOW=${WINDOW:-5} VARIANT_TIMEOUT_S=${VARIANT_TIMEOUT_S:-50} ORDER=${ORDER:-cudagraph}
CLIENTS=1 PASS=default bash scripts/device/gpu-run.sh
STUDIO_CAPI_SYNC=1 CLIENTS=1,8 PASS=sync bash scripts/device/gpu-run.sh
UV_THREADPOOL_SIZE=1 CLIENTS=1,8 PASS=uv1 bash scripts/device/gpu-run.sh
source scripts/device/use-bundle.sh
built=$(built_model "$OUT" 2>/dev/null)
san=/usr/local/cuda-13.0/bin/compute-sanitizer
if [ -x "$san" ] && [ "${SANITIZE:-1}" = 1 ]; then
  t=$(date +%s)
  timeout -k 10 "${SAN_TIMEOUT_S:-220}" "$san" --tool memcheck --print-limit 4 node out/main/cli.js bench --target inproc --model "$built" \
    --engine-config '{"framesPerTextToken":0,"minFramesCap":16}' --variants cudagraph --clients 1 --window 5 --passes 1 \
    --workloads plain --no-store --out "$work/reports-san" > "$OUT/sanitizer.log" 2>&1
  echo "=== sanitizer rc=$? in $(( $(date +%s) - t )) s"
  grep -nE '^=========' "$OUT/sanitizer.log" | head -40 | cut -c1-300
fi
