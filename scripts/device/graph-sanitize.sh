#!/usr/bin/env bash
# Issue 35: the CUDA graph replay crash under compute-sanitizer. Runs lab/gpu/capture-check.ts (bundled; the
# engine in process, 4 short staggered requests, graphCapture bound then on) on CUDA once plainly, then under
# memcheck, and prints the sanitizer's findings. Carry as for gpu-run.sh; on the device:
#   source .device/setup.sh > /dev/null; bash scripts/device/graph-sanitize.sh
# TOOL=initcheck or racecheck picks the sanitizer tool, PRINT_LIMIT how many reports it prints (6); CONFIG='{"graphCapture":{"codec":"on"},"warmUp":"off"}' passes engine settings to the check.
set -uo pipefail
: "${OUT:?set OUT}"
cd "$(dirname "$0")/../.."
source scripts/device/use-bundle.sh
built=$(built_model "$OUT")
only=${ONLY:-loop+stream}
config=${CONFIG:-'{}'}
t=$(date +%s)
STUDIO_CAPI_SYNC=1 STUDIO_CAPI_LOG_LEVEL=0 timeout -k 10 "${CHECK_TIMEOUT_S:-100}" node .cache/device-bundle/capture-check.js --model "$built" --provider cuda --only "$only" --config "$config" > "$OUT/check-plain.log" 2>&1
echo "=== plain (one thread, ORT verbose) rc=$? in $(( $(date +%s) - t )) s"; grep -E '^(loop|step)|illegal' "$OUT/check-plain.log" | head -5 | cut -c1-300
# Which gpu_graph_id each capture and replay used, in order (ORT's INFO lines).
grep -E 'Capturing|Replaying|Start another run|illegal' "$OUT/check-plain.log" | sed -E 's/^.*(Capturing|Replaying|Start another run|illegal)/\1/' | cut -c1-160 | uniq -c | head -60
xz -T0 -f "$OUT/check-plain.log"
san=/usr/local/cuda-13.0/bin/compute-sanitizer
t=$(date +%s)
STUDIO_CAPI_SYNC=1 timeout -k 10 "${SAN_TIMEOUT_S:-380}" "$san" --tool "${TOOL:-memcheck}" --print-limit "${PRINT_LIMIT:-6}" node .cache/device-bundle/capture-check.js --model "$built" --provider cuda --only "$only" --config "$config" > "$OUT/check-sanitizer.log" 2>&1
echo "=== sanitizer rc=$? in $(( $(date +%s) - t )) s"
grep -nE '^=========|^(loop|step)' "$OUT/check-sanitizer.log" | head -70 | cut -c1-260
xz -T0 -f "$OUT/check-sanitizer.log"
