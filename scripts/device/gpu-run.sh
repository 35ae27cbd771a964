#!/usr/bin/env bash
# The GPU run of the runtime issue: the four engines (webgpu as today, webgpucapture, cuda bound,
# cudagraph; src-main/app/inproc-bench-variants.ts) in `studio bench` closed loops on the 0.6B synthetic
# fp16 model, each variant in its own bench process (one that fails to start does not stop the rest),
# in ORDER (pass B reverses it), then the stage lab bench. The first call joins the CUDA provider and
# builds the model; a second call while the machine is warm reuses both (PASS=B). Carrying .device
# .cache/device-bundle .cache/device-nm .cache/cuda-chunks/SHA256SUMS, on the device:
#   source .device/setup.sh > /dev/null && PASS=A bash scripts/device/gpu-run.sh
set -uo pipefail
: "${OUT:?set OUT}"
cd "$(dirname "$0")/../.."
raw=$OUT/raw
mkdir -p "$raw"
source scripts/device/use-bundle.sh
built=$(built_model "$raw")
order=${ORDER:-webgpu,webgpucapture,cuda,cudagraph}
[ "${PASS:-A}" = B ] && order=$(echo "$order" | tr ',' '\n' | tac | paste -sd,)
config=${ENGINE_CONFIG:-'{"framesPerTextToken":0,"minFramesCap":16}'}
nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader -lms 500 > "$raw/smi-${PASS:-A}.csv" 2>/dev/null &
smi=$!
# One bench process per variant and client count, so a level that runs past VARIANT_TIMEOUT_S loses only itself.
for v in ${order//,/ }; do
  for c in ${CLIENTS:-1,8,64}; do c=${c//,/ }; for n in $c; do
    wait_gpu_free 60 2>> "$raw/gpu-wait.log"
    t=$(date +%s)
    tag=${PASS:-A}-$v-c$n
    timeout -k 10 "${VARIANT_TIMEOUT_S:-170}" node out/main/cli.js bench --target inproc --model "$built" --engine-config "$config" \
      --variants "$v" --clients "$n" --window "${WINDOW:-8}" --passes 1 --workloads plain --no-store \
      --out "$work/reports-$tag" > "$raw/bench-$tag.log" 2>&1
    echo "=== $tag rc=$? in $(( $(date +%s) - t )) s"
    cp "$work/reports-$tag"/*.md "$raw/bench-$tag.md" 2>/dev/null
    grep -E '^\| [0-9]+ \|' "$raw/bench-$tag.md" 2>/dev/null | head -3
    cat "$work/reports-$tag"/*.json 2>/dev/null | grep -oE '"goldenSha256": ?"[0-9a-f]{12}' | head -1
    grep -iE 'error|invalid|differ' "$raw/bench-$tag.log" | grep -v cudnnDestroy | head -2 | cut -c1-300
  done; done
done
kill "$smi" 2>/dev/null
if [ "${RT:-1}" = 1 ] && [ "${PASS:-A}" = A ]; then
  timeout -k 10 150 node .cache/device-bundle/runtime-bench.js --model "$built" --runs 20 --variants "${RT_VARIANTS:-webgpu,webgpu-capi,webgpu-capture,cuda,cuda-graph}" --out "$raw/runtime" > "$raw/runtime.log" 2>&1
  echo "=== runtime-bench rc $?"; grep -v '^\[' "$raw/runtime.log" | tail -16 | cut -c1-400
fi
# a second pass of the same name in one call keeps the first's results (results-S.tgz, then results-S-2.tgz, …)
tgz=$OUT/results-${PASS:-A}.tgz; k=2
while [ -e "$tgz" ]; do tgz=$OUT/results-${PASS:-A}-$k.tgz; k=$((k + 1)); done
tar -C "$OUT" -czf "$tgz" raw && rm -rf "$raw"
