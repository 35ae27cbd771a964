#!/usr/bin/env bash
# Where a GPU engine's step time goes (issue 35): lab/gpu/step-profile.ts on the 0.6B fp16 synthetic model,
# per engine config 1 and 8 streams with the stages and the bound runs timed, then the plain codec on CUDA
# under cuDNN option sets with ORT's node profile. On a warm machine after the CUDA chunk call, carrying
# .device .cache/device-bundle-xz .cache/device-nm .cache/cuda-chunks/SHA256SUMS:
#   source .device/setup.sh > /dev/null; bash scripts/device/step-profile.sh
set -uo pipefail
: "${OUT:?set OUT}"
cd "$(dirname "$0")/../.."
source scripts/device/use-bundle.sh
raw=$OUT/raw-profile
mkdir -p "$raw"
built=$(built_model "$raw")
configs=${CONFIGS:-'[{"provider":"cuda","graphCapture":{"mode":"on"}},{"provider":"cuda","graphCapture":{"mode":"on"},"codec":{"upsample":"matmul"}},{"provider":"cuda","graphCapture":{"mode":"bound"}},{"provider":"webgpu"},{"provider":"webgpu","graphCapture":{"mode":"on"}}]'}
codec=${CODEC_OPTIONS:-'[{},{"cudnn_conv_algo_search":"HEURISTIC"},{"cudnn_conv_algo_search":"DEFAULT"},{"cudnn_conv1d_pad_to_nc1d":"1"},{"use_tf32":"0"}]'}
step_profile "$raw/step-profile.log" "$configs" "$codec" "${PROFILE_TIMEOUT_S:-420}" 1200
tar -C "$OUT" -czf "$OUT/results-profile.tgz" raw-profile && rm -rf "$raw"
