#!/usr/bin/env bash
# Does graph capture keep the bytes, and does every node of the static graphs sit on the GPU provider?
# Runs lab/gpu/capture-check.ts (bundled) for each provider in PROVIDERS on the model that gpu-run.sh
# built, with ORT's verbose session log, and prints the check's lines plus the nodes each provider left
# on the CPU. On the device, after gpu-run.sh built the model (same warm machine):
#   source .device/setup.sh > /dev/null; PROVIDERS=cuda,webgpu bash scripts/device/capture-check.sh
set -uo pipefail
: "${OUT:?set OUT}"
cd "$(dirname "$0")/../.."
source scripts/device/use-bundle.sh
raw=$OUT/raw-check
mkdir -p "$raw"
built=$(ls -d "$work/built-${SIZE:-0.6b}"/*-fp16 | head -1)
for p in ${PROVIDERS:-cuda,webgpu}; do p=${p//,/ }; for q in $p; do
  t=$(date +%s)
  STUDIO_CAPI_LOG_LEVEL=0 timeout -k 10 "${CHECK_TIMEOUT_S:-200}" node .cache/device-bundle/capture-check.js --model "$built" --provider "$q" ${ONLY:+--only "$ONLY"} > "$raw/check-$q.log" 2> "$raw/check-$q.verbose"
  echo "=== capture-check $q rc=$? in $(( $(date +%s) - t )) s"
  grep -E '^(loop|step)' "$raw/check-$q.log"
  echo "--- nodes left on the CPU (per session opened, in order):"
  grep -A4 'placed on \[CPUExecutionProvider\]' "$raw/check-$q.verbose" | grep -oE 'CPUExecutionProvider\]. Number of nodes: [0-9]+|   [A-Za-z]+ \([^)]*\)' | sort | uniq -c | sort -rn | head -12
  grep -c 'All nodes placed on' "$raw/check-$q.verbose" | sed 's/^/sessions wholly on one provider: /'
  grep -oE 'cannot use the graph capture feature[^;]*' "$raw/check-$q.log" | sort -u | head -3
  xz -T0 -f "$raw/check-$q.verbose"
done; done
