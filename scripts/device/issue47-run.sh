#!/usr/bin/env bash
# Issue 47 on the GPU machine, one call per STEP, each writing into $OUT as it goes (a cut-off call keeps
# what it measured). After the CUDA chunk call (cuda-chunks.sh check), carrying .device
# .cache/device-bundle-xz .cache/device-nm .cache/cuda-chunks/SHA256SUMS:
#   source .device/setup.sh > /dev/null; STEP=check bash scripts/device/issue47-run.sh    (build, capture check [TWICE=1: each mode
#                                                                                       twice, deterministic?], step profile)
#   source .device/setup.sh > /dev/null; STEP=bench bash scripts/device/issue47-run.sh    (the bench, 1 and 8 clients)
#   source .device/setup.sh > /dev/null; STEP=sanitize bash scripts/device/issue47-run.sh (the codec's replays under memcheck)
#   source .device/setup.sh > /dev/null; STEP=quick bash scripts/device/issue47-run.sh    (capture check and bench in one call)
#   source .device/setup.sh > /dev/null; STEP=codecwhy bash scripts/device/issue47-run.sh (why the captured codec differs: one change per line)
#   source .device/setup.sh > /dev/null; STEP=sessions bash scripts/device/issue47-run.sh (the codec's sessions per bucket vs
#                                                                                       shared: step profile and bench side by side)
#   source .device/setup.sh > /dev/null; STEP=next bash scripts/device/issue47-run.sh     (what this code has not run on a GPU:
#                                                                                       profile and bench of cudaauto, cudacodecshared,
#                                                                                       cudaprefill8 and webgpu at 1 and 8 clients)
#   source .device/setup.sh > /dev/null; STEP=c8why bash scripts/device/issue47-run.sh    (why a bench level of 8 clients fails at
#                                                                                       setup: each variant alone, the first blocking)
#   source .device/setup.sh > /dev/null; STEP=profile bash scripts/device/issue47-run.sh  (step profile only, CONFIGS as in check; then
#                                                                                       1 client of cudaauto with the prefix KV cache off)
# The configs side by side: cudaconv (CUDA graphs as shipped before issue 47), cudacodecbound (the MatMul codec and
# cuDNN options, codec uncaptured), cudaauto (every stage captured: today's default), webgpu.
set -uo pipefail
: "${OUT:?set OUT}"
cd "$(dirname "$0")/../.."
source scripts/device/use-bundle.sh
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt" 2>&1
built=$(built_model "$OUT" 2>> "$OUT/model.txt")
cat "$OUT/model.txt"
conv='{"provider":"cuda","graphCapture":{"mode":"on","codec":"off"},"codec":{"upsample":"conv-transpose"},"providerOptions":{"cudnn_conv_algo_search":"EXHAUSTIVE","prefer_nhwc":"0"}}'
bound='{"provider":"cuda","graphCapture":{"codec":"off"}}'
auto='{"provider":"cuda"}'
webgpu='{"provider":"webgpu"}'
# The step profile of these configs (a JSON list) at STREAMS, waiting first for the GPU to be free; timeout in s.
profile() {
  wait_gpu_free 60
  step_profile "$OUT/step-profile.log" "$1" '[]' "$2"
}
case "${STEP:-check}" in
  check)
    t=$(date +%s)
    # TWICE=1: each mode runs again, so the log also says whether bound and captured are each deterministic
    timeout -k 10 "${CHECK_TIMEOUT_S:-$([ -n "${TWICE:-}" ] && echo 280 || echo 150)}" node .cache/device-bundle/capture-check.js --model "$built" --provider cuda --only loop+stream ${TWICE:+--twice} > "$OUT/capture-check.log" 2>&1
    echo "=== capture-check rc=$? in $(( $(date +%s) - t )) s"; grep -E '^(loop|step)' "$OUT/capture-check.log" | cut -c1-300
    profile "[${CONFIGS:-$conv,$bound,$auto,$webgpu}]" "${PROFILE_TIMEOUT_S:-330}"
    ;;
  bench)
    PASS=${PASS:-E} ORDER=${ORDER:-cudaauto,cudacodecbound,cudaconv,webgpu} CLIENTS=${CLIENTS:-1,8} VARIANT_TIMEOUT_S=${VARIANT_TIMEOUT_S:-60} WINDOW=${WINDOW:-5} RT=0 \
      bash scripts/device/gpu-run.sh
    ;;
  quick)
    # the short form for a lease with little device time left: the capture check, then the bench
    t=$(date +%s)
    timeout -k 10 100 node .cache/device-bundle/capture-check.js --model "$built" --provider cuda --only loop+stream > "$OUT/capture-check.log" 2>&1
    echo "=== capture-check rc=$? in $(( $(date +%s) - t )) s"; grep -E '^(loop|step)' "$OUT/capture-check.log" | cut -c1-300
    PASS=${PASS:-Q} ORDER=${ORDER:-cudaauto,cudaconv,webgpu} CLIENTS=${CLIENTS:-1,8} VARIANT_TIMEOUT_S=${VARIANT_TIMEOUT_S:-55} WINDOW=${WINDOW:-5} RT=0 \
      bash scripts/device/gpu-run.sh
    ;;
  codecwhy)
    # Why the captured codec's bytes differ from its bound run: capture-check with the codec captured
    # (warm-up off, so each run is short), each line one change from the first, each run twice
    # (--twice: is each mode deterministic on its own?). A line that reads 'gives the bound bytes' names the cause.
    on='"graphCapture":{"codec":"on"},"warmUp":"off"'
    check() { # name, config JSON body, env...
      local name=$1 body=$2; shift 2
      t=$(date +%s)
      env "$@" timeout -k 10 "${CHECK_TIMEOUT_S:-90}" node .cache/device-bundle/capture-check.js --model "$built" --provider cuda --only loop+stream --twice --config "{$body}" > "$OUT/why-$name.log" 2>&1
      echo "=== $name rc=$? in $(( $(date +%s) - t )) s: $(grep -E '^loop' "$OUT/why-$name.log" | tr '\n' ' ' | cut -c1-300)"
      grep -iE 'error' "$OUT/why-$name.log" | grep -v cudnnDestroy | head -2 | cut -c1-200
    }
    check base "$on" X=1
    check no-max-workspace "$on,\"providerOptions\":{\"cudnn_conv_use_max_workspace\":\"0\"}" X=1
    check no-nhwc "$on,\"providerOptions\":{\"prefer_nhwc\":\"0\"}" X=1
    check no-tf32 "$on,\"providerOptions\":{\"use_tf32\":\"0\"}" X=1
    check cublas-ws "$on" CUBLAS_WORKSPACE_CONFIG=:4096:8
    check conv-transpose "$on,\"codec\":{\"upsample\":\"conv-transpose\"}" X=1
    check exhaustive "$on,\"providerOptions\":{\"cudnn_conv_algo_search\":\"DEFAULT\"}" X=1
    check warm "\"graphCapture\":{\"codec\":\"on\"},\"warmUp\":\"on\"" X=1
    ;;
  profile)
    profile "[${CONFIGS:-$auto,$webgpu}]" "${PROFILE_TIMEOUT_S:-300}"
    # the prefix KV cache off, one client, beside the default's figure from STEP=quick
    PASS=P ORDER=cudaauto CLIENTS=1 VARIANT_TIMEOUT_S=60 WINDOW=5 RT=0 \
      ENGINE_CONFIG='{"framesPerTextToken":0,"minFramesCap":16,"prefixCache":{"maxBytes":0}}' bash scripts/device/gpu-run.sh
    ;;
  sessions)
    # graphCapture.codecSessions: 'auto' (per bucket on CUDA) against 'shared' (one session, every Conv's plan
    # rebuilt when the chunk length changes); the step profile's request0Sha256 must agree across both
    shared='{"provider":"cuda","graphCapture":{"codecSessions":"shared"}}'
    STREAMS=${STREAMS:-1,4,8} profile "[$auto,$shared]" "${PROFILE_TIMEOUT_S:-200}"
    PASS=S ORDER=${ORDER:-cudaauto,cudacodecshared,webgpu} CLIENTS=${CLIENTS:-1,8} VARIANT_TIMEOUT_S=${VARIANT_TIMEOUT_S:-60} WINDOW=${WINDOW:-5} RT=0 \
      bash scripts/device/gpu-run.sh
    ;;
  next)
    # The codec's states on the device with the row gather (27b0941), one codec session against one per bucket,
    # one-row prefill, each level on a free GPU; then the bench side by side (every response against its golden).
    prefill1='{"provider":"cuda","shapeBuckets":{"talkerPrefillRows":1}}'
    shared='{"provider":"cuda","graphCapture":{"codecSessions":"shared"}}'
    STREAMS=${STREAMS:-1,4,8} profile "[$auto,$shared,$prefill1]" "${PROFILE_TIMEOUT_S:-240}"
    PASS=N ORDER=${ORDER:-cudaauto,cudacodecshared,cudaprefill8,webgpu} CLIENTS=${CLIENTS:-1,8} VARIANT_TIMEOUT_S=${VARIANT_TIMEOUT_S:-60} WINDOW=${WINDOW:-5} RT=0 \
      bash scripts/device/gpu-run.sh
    ;;
  c8why)
    # Why a bench level of 8 clients fails at setup (2026-12-07, cudaauto: a cuBLAS status from the talker's download
    # copy graph, after c1 passed): SPECS of variant:CUDA_LAUNCH_BLOCKING:clients, each alone, every message in full,
    # then the 1-client levels and WebGPU beside them. Small files only (one tarball at the end).
    mkdir -p "$OUT/raw"
    # a 4th field 'shared': one codec session for every bucket (a wide engine's many 64-row codec buckets each in a session of their own would not fit)
    for spec in ${SPECS:-cudaauto:0:8 cudaauto:0:1 webgpu:0:1 webgpu:0:8 cudaauto:1:8 cudawide:0:64:shared}; do
      IFS=: read -r v blocking n extra <<< "$spec"; tag=W-$v-b$blocking-c$n
      config='{"framesPerTextToken":0,"minFramesCap":16}'
      [ "$extra" = shared ] && config='{"framesPerTextToken":0,"minFramesCap":16,"graphCapture":{"codecSessions":"shared"}}'
      wait_gpu_free 60
      nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader,nounits -lms 250 > "$OUT/raw/smi-$tag.csv" 2>/dev/null &
      smi=$!
      t=$(date +%s)
      CUDA_LAUNCH_BLOCKING=$blocking timeout -k 10 "${VARIANT_TIMEOUT_S:-$([ "$n" -ge 64 ] && echo 170 || echo 100)}" node out/main/cli.js bench --target inproc --model "$built" \
        --engine-config "$config" --variants "$v" --clients "$n" --window 5 --passes 1 --workloads plain --no-store \
        --out "$work/reports-$tag" > "$OUT/raw/bench-$tag.log" 2>&1
      rc=$?
      kill "$smi" 2>/dev/null; wait "$smi" 2>/dev/null
      util=$(awk -F', *' '{ if ($1 > 0) { s += $1; k++ } if ($2 > mem) mem = $2 } END { printf "GPU busy-mean %.0f%%, memory peak %d MiB", k ? s / k : 0, mem }' "$OUT/raw/smi-$tag.csv")
      echo "=== $tag (CUDA_LAUNCH_BLOCKING=$blocking $extra) rc=$rc in $(( $(date +%s) - t )) s; $util"
      cat "$work/reports-$tag"/*.md 2>/dev/null | grep -E '^\| [0-9]+ \|' | head -2 | cut -c1-400
      cat "$work/reports-$tag"/*.json 2>/dev/null | grep -oE '"goldenSha256": ?"[0-9a-f]{12}' | head -1
      grep -hE -A3 '^## Errors' "$work/reports-$tag"/*.md 2>/dev/null | head -4 | cut -c1-2500
      grep -hiE 'illegal|out of memory|cublas|warm-up [0-9]+ buckets|error' "$OUT/raw/bench-$tag.log" | grep -v cudnnDestroy | sort -u | head -4 | cut -c1-600
      cp "$work/reports-$tag"/*.md "$OUT/raw/bench-$tag.md" 2>/dev/null
    done
    tar -C "$OUT" -czf "$OUT/results-W.tgz" raw && rm -rf "$OUT/raw"
    ;;
  sanitize)
    ONLY=loop+stream bash scripts/device/graph-sanitize.sh
    ;;
esac
