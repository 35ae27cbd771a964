#!/usr/bin/env bash
# Issue 42 on the GPU machine: the bench's closed loops at 1, 8, 16 and 64 clients for one engine
# variant (VARIANT, e.g. cudawide or webgpu), each level in its own bench process, with nvidia-smi
# sampled per level (GPU utilisation mean and peak, memory peak). Writes into $OUT as it goes, so a
# cut-off call keeps the levels it finished. After the CUDA chunk call (cuda-chunks.sh check), carrying
# .device .cache/device-bundle-xz .cache/device-nm .cache/cuda-chunks/SHA256SUMS:
#   source .device/setup.sh > /dev/null; VARIANT=cudawide bash scripts/device/issue42-run.sh
set -uo pipefail
: "${OUT:?set OUT}"
cd "$(dirname "$0")/../.."
source scripts/device/use-bundle.sh
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt" 2>&1
built=$(built_model "$OUT" 2>> "$OUT/model.txt")
cat "$OUT/model.txt"
variant=${VARIANT:-cudawide}
config=${ENGINE_CONFIG:-'{"framesPerTextToken":0,"minFramesCap":16}'}
for n in ${CLIENTS:-1 8 16 64}; do
  tag=$variant-c$n
  wait_gpu_free 60 2>> "$OUT/gpu-wait.log"
  nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader,nounits -lms 250 > "$OUT/smi-$tag.csv" 2>/dev/null &
  smi=$!
  t=$(date +%s)
  limit=${LEVEL_TIMEOUT_S:-150}
  timeout -k 10 "$limit" node out/main/cli.js bench --target inproc --model "$built" --engine-config "$config" \
    --variants "$variant" --clients "$n" --window "${WINDOW:-5}" --passes 1 --workloads plain --no-store \
    --out "$work/reports-$tag" > "$OUT/bench-$tag.log" 2>&1
  rc=$?
  kill "$smi" 2>/dev/null; wait "$smi" 2>/dev/null
  # the busy samples only (utilisation > 0 after the engine's first run), so start-up does not dilute the mean
  util=$(awk -F', *' '{ if ($1 > 0) { s += $1; k++ } if ($1 > m) m = $1; if ($2 > mem) mem = $2 } END { printf "util busy-mean %.0f%% peak %d%%, memory peak %d MiB (%d samples busy)", k ? s / k : 0, m, mem, k }' "$OUT/smi-$tag.csv")
  echo "=== $tag rc=$rc in $(( $(date +%s) - t )) s; $util"
  cp "$work/reports-$tag"/*.md "$OUT/bench-$tag.md" 2>/dev/null
  cp "$work/reports-$tag"/*.json "$OUT/bench-$tag.json" 2>/dev/null
  grep -E '^\| [0-9]+ \|' "$OUT/bench-$tag.md" 2>/dev/null | head -3 | cut -c1-400
  grep -iE 'warm|error|invalid|differ' "$OUT/bench-$tag.log" | grep -v cudnnDestroy | head -3 | cut -c1-300
  xz -T0 -f "$OUT/smi-$tag.csv"
done
