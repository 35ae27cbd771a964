#!/usr/bin/env bash
# The GPU run's probe call (issue 35), on a warm machine after the CUDA chunk call: builds the 0.6B fp16 model,
# then capture-check on CUDA and WebGPU (captured = bound bytes; the nodes each provider left on the CPU),
# the capture-cost probe on WebGPU (time, sessions, KV staging, GPU memory per capture form) and the stage
# lab bench. Carrying .device .cache/device-bundle-xz .cache/device-nm .cache/cuda-chunks/SHA256SUMS:
#   source .device/setup.sh > /dev/null; bash scripts/device/probe-run.sh
set -uo pipefail
: "${OUT:?set OUT}"
cd "$(dirname "$0")/../.."
source scripts/device/use-bundle.sh
raw=$OUT/raw-probe
mkdir -p "$raw"
built=$(built_model "$raw")
CHECK_TIMEOUT_S=${CHECK_TIMEOUT_S:-120} ONLY=${ONLY:-loop+stream,step+window} bash scripts/device/capture-check.sh
mv "$OUT"/raw-check/* "$raw/" 2>/dev/null; rmdir "$OUT/raw-check" 2>/dev/null
t=$(date +%s)
timeout -k 10 "${COST_TIMEOUT_S:-150}" node .cache/device-bundle/capture-cost.js --model "$built" --provider webgpu --requests 16 --frames 16 > "$raw/capture-cost-webgpu.log" 2>&1
echo "=== capture-cost webgpu rc=$? in $(( $(date +%s) - t )) s"; cut -c1-600 "$raw/capture-cost-webgpu.log"
if [ "${RT:-1}" = 1 ]; then
  timeout -k 10 120 node .cache/device-bundle/runtime-bench.js --model "$built" --runs 20 --variants "${RT_VARIANTS:-cuda,cuda-graph,webgpu-capi,webgpu-capture}" --out "$raw/runtime" > "$raw/runtime.log" 2>&1
  echo "=== runtime-bench rc $?"; grep -v '^\[' "$raw/runtime.log" | tail -16 | cut -c1-400
fi
tar -C "$OUT" -czf "$OUT/results-probe.tgz" raw-probe && rm -rf "$raw"
