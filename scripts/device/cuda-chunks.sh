#!/usr/bin/env bash
# Carries ONNX Runtime's CUDA provider (229 MB) to the GPU machine, whose calls take 64 MiB each:
#   here:    bash scripts/device/cuda-chunks.sh split   (PRUNE_SM=90 by default: one chunk of ~39 MB)
#            (after `npm run setup:cuda`, or `npm run setup:cuda -- --from <package.tgz>`): xz-compresses the
#            provider libraries into one archive and splits it into chunks of at most 55 MiB under
#            .cache/cuda-chunks/ (part-00, part-01, …, plus SHA256SUMS), one chunk per call.
#   device:  call k carries .cache/cuda-chunks/part-0k (plus SHA256SUMS) and runs
#            `bash scripts/device/cuda-chunks.sh check` (lists what has arrived; ignored folders stay while
#            the machine is warm, 30 s after a call); the last call runs
#            `bash scripts/device/cuda-chunks.sh join` after `source .device/setup.sh`: it verifies the archive,
#            unpacks the libraries beside the onnxruntime-node core and prints STUDIO_CUDA_LIB_PATH for the
#            pip nvidia-* folders that hold the CUDA 13 libraries.
set -euo pipefail
cd "$(git rev-parse --show-toplevel 2>/dev/null || dirname "$0")"
[ -d scripts/device ] || cd "$(dirname "$0")/../.."
chunks=.cache/cuda-chunks
chunk_mib=${CHUNK_MIB:-55}
xz_level=${XZ_LEVEL:-6}
# The GPU machines lent here are Hopper (sm_90): the other architectures' cubins are zeroed before compressing
# (fatbin-prune.mjs), which takes the provider from 171 MB (xz -0, three calls) to about 39 MB (xz -6, one
# call). PRUNE_SM= (empty) sends the whole library.
prune_sm=${PRUNE_SM-90}
core_dir=node_modules/onnxruntime-node/bin/napi-v6/linux/x64
libs=(libonnxruntime_providers_cuda.so libonnxruntime_providers_shared.so)

case "${1:-}" in
  split)
    src=$(ls -d .cache/ort-cuda/*/package/Plugins/Linux/x64 2>/dev/null | head -1 || true)
    [ -n "$src" ] && [ -s "$src/${libs[0]}" ] || { echo "no unpacked CUDA provider under .cache/ort-cuda: run npm run setup:cuda first" >&2; exit 1; }
    rm -rf "$chunks" && mkdir -p "$chunks"
    echo "compressing ${libs[*]} from $src (xz -$xz_level)…"
    stage=$src
    if [ -n "$prune_sm" ]; then
      stage=$(mktemp -d)
      node scripts/device/fatbin-prune.mjs "$src/${libs[0]}" "$stage/${libs[0]}" "$prune_sm"
      cp "$src/${libs[1]}" "$stage/"
    fi
    tar -C "$stage" -cf - "${libs[@]}" | xz -T0 -"$xz_level" -c > "$chunks/provider.tar.xz"
    [ "$stage" = "$src" ] || rm -rf "$stage"
    (cd "$chunks" && sha256sum provider.tar.xz > SHA256SUMS)
    split -b "${chunk_mib}M" -d -a 2 "$chunks/provider.tar.xz" "$chunks/part-"
    rm "$chunks/provider.tar.xz"
    ls -l "$chunks"
    echo "send each part-NN in its own call with SHA256SUMS (carry .cache/cuda-chunks/part-NN .cache/cuda-chunks/SHA256SUMS)"
    ;;
  check)
    ls -l "$chunks" 2>/dev/null || echo "nothing has arrived in $chunks yet"
    ;;
  join)
    [ -s "$chunks/SHA256SUMS" ] || { echo "$chunks/SHA256SUMS is missing: carry it with a chunk" >&2; exit 1; }
    [ -d "$core_dir" ] || { echo "$core_dir is missing: source .device/setup.sh first" >&2; exit 1; }
    cat "$chunks"/part-* > "$chunks/provider.tar.xz"
    (cd "$chunks" && sha256sum -c SHA256SUMS) || { echo "the joined archive does not match SHA256SUMS: a chunk is missing or stale; resend it" >&2; exit 1; }
    xz -dc "$chunks/provider.tar.xz" | tar -C "$core_dir" -xf -
    rm "$chunks/provider.tar.xz"
    ls -l "$core_dir"
    # the CUDA 13 libraries of the machine's PyTorch environment (pip nvidia-* wheels), for STUDIO_CUDA_LIB_PATH
    dirs=$(find / \( -name 'libcublas.so.13' -o -name 'libcudart.so.13' -o -name 'libcurand.so.10' -o -name 'libcudnn.so.9' \) -not -path '/proc/*' 2>/dev/null \
      | xargs -r -n1 dirname | sort -u | paste -sd: - || true)
    echo "export STUDIO_CUDA_LIB_PATH=$dirs"
    ;;
  *)
    echo "usage: bash scripts/device/cuda-chunks.sh split|check|join" >&2
    exit 2
    ;;
esac
