#!/usr/bin/env bash
# The GPU run of the runtime issue on one machine, in one call: joins the CUDA provider carried in
# chunks (cuda-chunks.sh), builds the 0.6B synthetic fp16 model once, then in one run: `studio bench`
# in process on WebGPU and on CUDA (same variants, clients and window), and the stage-level lab bench
# (runtime-bench.js) over webgpu, cuda, cuda-graph and webgpu-capture. Everything lands in
# $OUT/results.tgz (the device returns at most 8 files). On the device, carrying .device
# .cache/device-bundle .cache/device-nm .cache/cuda-chunks/SHA256SUMS:
#   source .device/setup.sh && bash scripts/device/engines-side-by-side.sh
set -uo pipefail
: "${OUT:?set OUT}"
cd "$(dirname "$0")/../.."
raw=$OUT/raw
mkdir -p "$raw"
bash scripts/device/cuda-chunks.sh join > "$raw/join.log" 2>&1 || { cat "$raw/join.log"; exit 1; }
eval "$(grep '^export STUDIO_CUDA_LIB_PATH=' "$raw/join.log")"
export LD_LIBRARY_PATH="${STUDIO_CUDA_LIB_PATH}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "STUDIO_CUDA_LIB_PATH=$STUDIO_CUDA_LIB_PATH"
export WORK=${WORK:-$PWD/.cache/device-work}
# 16 frames per request (1.28 s of audio), as the earlier H200 runs measured
export SIZE=0.6b DTYPE=fp16 VARIANTS=${VARIANTS:-serial,batched} CLIENTS=${CLIENTS:-1,8} WINDOW=${WINDOW:-10} PHASES=inproc
export ENGINE_CONFIG=${ENGINE_CONFIG:-'{"framesPerTextToken":0,"minFramesCap":16}'}
for p in ${PROVIDERS:-webgpu cuda}; do
  OUT=$raw/$p PROVIDER=$p timeout -k 10 "${BENCH_TIMEOUT_S:-200}" bash scripts/device/run-bench.sh
  echo "--- $p"; cat "$raw/$p/summary.txt"; grep -E '^\| 1 ' "$raw/$p/inproc.md" 2>/dev/null | head -8
  if [ -z "${built:-}" ]; then
    built=$(grep -h '^model: ' "$raw/$p/summary.txt" | tail -1 | sed 's/^model: //')
    timeout -k 10 "${RT_TIMEOUT_S:-150}" node .cache/device-bundle/runtime-bench.js --model "$built" --variants "${RT_VARIANTS:-webgpu,cuda,cuda-graph,webgpu-capture}" --out "$raw/runtime" > "$raw/runtime.log" 2>&1
    echo "--- runtime-bench rc $?"; tail -30 "$raw/runtime.log"
  fi
done
nvidia-smi > "$raw/nvidia-smi.txt" 2>&1
tar -C "$OUT" -czf "$OUT/results.tgz" raw && rm -rf "$raw"
