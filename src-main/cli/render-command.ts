/**
 * `studio render <document>`: a long text, SSML file or folder of texts, split into parts
 * (render/render-plan.ts), rendered on this machine's engines or, with --queue redis://…, by
 * `studio worker` processes anywhere, then assembled in order with one loudness normalisation.
 * `studio worker --queue redis://…`: a headless engine pool taking render jobs until Ctrl+C.
 * Parts already rendered (their files in the output folder) are skipped on every run.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { STUDIO_VERSION } from '../../src-shared/version';
import { DEFAULT_SEED, MAX_SEED } from '../../src-shared/sampling-limits';
import { StudioError, isErrorCode } from '../../src-shared/errors';
import { EMBEDDED_TINY } from '../engine-protocol/protocol';
import { engineDevicesFor } from '../engine-client/engine-devices';
import { createStudioStack, type StudioStack } from '../app/studio-stack';
import { planRender, type RenderSettings } from '../render/render-plan';
import { assembleWork } from '../render/render-parts';
import { checkOutputDir } from '../render/render-job-schema';
import { within } from '../render/abortable';
import { renderLocally } from '../render/render-local';
import type { RenderProgress } from '../render/render-progress';
import { parseIntFlag } from './cli-errors';
import { addEngineFlags, engineOverridesFromFlags } from './engine-options';
import { stopOnSignals } from './stop-on-signals';
import { addSamplingFlags, samplingParamsFromFlags, type SamplingFlags } from './sampling-flags';
import { savedVoiceConditioning } from './voice-command';
import { selectSavedVoices } from '../services/voice-library-service';
import type { SavedVoicesForPart } from '../render/render-parts';

interface EngineFlags {
  model?: string;
  provider?: string;
  engineConfig?: string;
  devices?: string;
}

interface RenderOptions extends SamplingFlags, EngineFlags {
  queue?: string;
  outDir?: string;
  output?: string;
  voice: string;
  language: string;
  seed: string;
  concurrency: string;
  attempts: string;
  backoffMs: string;
}

interface WorkerOptions extends EngineFlags {
  queue: string;
  name?: string;
  concurrency?: string;
  lockMs: string;
  stalledMs: string;
}

/** The local engine pool for --model/--provider/--engine-config/--devices, started. */
async function startEngines(opts: EngineFlags): Promise<StudioStack> {
  const engineConfig = engineOverridesFromFlags(opts);
  const devices = engineDevicesFor(opts.devices, String(engineConfig.provider ?? 'auto'), engineConfig);
  const stack = createStudioStack({ hostKind: 'headless', version: STUDIO_VERSION, model: opts.model ?? process.env.STUDIO_MODEL ?? EMBEDDED_TINY, engineConfig, devices });
  await stack.host.start();
  return stack;
}

/** One line per change of a chapter's count (a TTY shows a running line). */
function progressPrinter(): (p: RenderProgress) => void {
  const last = new Map<number, number>();
  return (p) => {
    p.chapters.forEach((c, i) => {
      if (last.get(i) === c.numDone) return;
      last.set(i, c.numDone);
      process.stderr.write(`chapter ${i + 1}/${p.chapters.length} ${c.title}: ${c.numDone}/${c.numParts} parts\n`);
    });
    if (p.numFailed > 0) process.stderr.write(`${p.numFailed} part(s) failed so far\n`);
  };
}

async function runRender(document: string, opts: RenderOptions): Promise<void> {
  const settings: RenderSettings = {
    voice: opts.voice.toLowerCase(),
    language: opts.language.toLowerCase(),
    seed: parseIntFlag('seed', opts.seed, 0, MAX_SEED),
    params: samplingParamsFromFlags(opts),
    model: opts.model ?? process.env.STUDIO_MODEL ?? EMBEDDED_TINY,
  };
  const concurrency = parseIntFlag('concurrency', opts.concurrency, 1, 1024);
  const attempts = parseIntFlag('attempts', opts.attempts, 1, 100);
  const backoffMs = parseIntFlag('backoff-ms', opts.backoffMs, 0, 600_000);
  // Saved voices speak as in `studio synth`; their content is part of each part's id, and queued
  // jobs carry them to workers on other machines.
  const saved = await savedVoiceConditioning();
  const savedVoicesFor: SavedVoicesForPart = (part) => selectSavedVoices(saved, { ...part, voice: settings.voice });
  const plan = planRender(document, settings, { savedVoicesFor });
  const name = path.basename(document).replace(/\.[^.]+$/, '') || 'render';
  // checked before any mkdir: a recursive mkdir under /proc never returns
  const outputDir = checkOutputDir(path.resolve(opts.outDir ?? `${name}-render`));
  const output = path.resolve(opts.output ?? path.join(outputDir, `${name}.wav`));
  process.stderr.write(`${plan.parts.length} parts in ${plan.chapters.length} chapter(s); parts go to ${path.join(outputDir, 'parts')}\n`);
  const onProgress = progressPrinter();
  let failures;
  if (opts.queue) {
    const { submitRender, defaultQueueConfig } = await import('../render/render-queue');
    const onNotice = (notice: string | null) => process.stderr.write(`${notice ?? 'a worker for this model is taking parts now'}\n`);
    const result = await submitRender(opts.queue, plan, outputDir, onProgress, { ...defaultQueueConfig(), attempts, backoffMs }, { savedVoicesFor, onNotice });
    failures = result.failures;
  } else {
    const stack = await startEngines(opts);
    try {
      failures = (await renderLocally(stack.host, plan, outputDir, onProgress, { concurrency, attempts, savedVoicesFor })).failures;
    } finally {
      await stack.dispose();
    }
  }
  if (failures.length > 0) {
    for (const f of failures) process.stderr.write(`part ${f.part.index + 1} (chapter ${f.part.chapter + 1}) failed: ${f.reason}\n`);
    // A runtime failure (exit 1), under the first part's own code where it names one.
    const code = /^([a-z-]+): /.exec(failures[0].reason)?.[1];
    throw new StudioError(isErrorCode(code) && code !== 'invalid-argument' ? code : 'internal', `${failures.length} of ${plan.parts.length} parts failed (reasons above); fix them and run the same command again — finished parts are kept`, { numFailed: failures.length });
  }
  const work = assembleWork(plan, outputDir);
  fs.writeFileSync(output, work.wav);
  const lufs = work.finalLufs === null ? 'silence' : `${work.finalLufs.toFixed(1)} LUFS`;
  process.stderr.write(`wrote ${output}: ${(work.numSamples / work.sampleRateHz).toFixed(1)} s, ${plan.parts.length} parts, ${lufs}\n`);
}

async function runWorker(opts: WorkerOptions): Promise<void> {
  const lockDurationMs = parseIntFlag('lock-ms', opts.lockMs, 1_000, 3_600_000);
  const stalledIntervalMs = parseIntFlag('stalled-ms', opts.stalledMs, 500, 3_600_000);
  const { connectionFor, defaultQueueConfig } = await import('../render/render-queue');
  const { startRenderWorker } = await import('../render/render-worker');
  const { probeRedis, redactedUrl } = await import('../render/redis-probe');
  connectionFor(opts.queue); // a redis:// URL, or a usage error
  // Redis first (a URL that is not Redis fails here, naming it), before the engines load
  await probeRedis(opts.queue, { timeoutMs: defaultQueueConfig().connectTimeoutMs });
  const stack = await startEngines(opts);
  const concurrency = opts.concurrency ? parseIntFlag('concurrency', opts.concurrency, 1, 1024) : 8 * stack.host.size;
  const model = opts.model ?? process.env.STUDIO_MODEL ?? EMBEDDED_TINY;
  const worker = startRenderWorker({
    url: opts.queue,
    host: stack.host,
    model,
    concurrency,
    name: opts.name,
    config: { lockDurationMs, stalledIntervalMs },
    onPart: (o) => console.log(`part ${o.index + 1} ${o.skipped ? 'already there' : 'rendered'} (${o.partId})`),
    onFailure: (f) => console.log(f.partIndex === null ? `job ${f.jobId} refused: ${f.reason}` : `part ${f.partIndex + 1} failed: ${f.reason}`),
  });
  stopOnSignals(
    (signal) => `${signal}: finishing running jobs (up to ${lockDurationMs} ms)`,
    async () => {
      // past the lock a running job is another worker's anyway (BullMQ finds it stalled)
      await within(worker.close(), lockDurationMs);
      await stack.dispose();
    },
  );
  await worker.waitUntilReady();
  console.log(`worker ready: ${stack.host.size} engine(s) (${stack.host.labels.join(', ')}), ${concurrency} jobs at a time, model ${model}, queue ${redactedUrl(opts.queue)}`);
  await new Promise<never>(() => {});
}

export function registerRender(program: Command): void {
  const render = program
    .command('render <document>')
    .description('render a long document (text, SSML or a folder of texts) in parts, then assemble it; --queue spreads the parts over workers')
    .option('--queue <url>', 'Redis URL of the render queue (redis://host:6379); without it the parts render on this machine')
    .option('--out-dir <folder>', 'folder for the parts (shared by all workers) and the result; default <document name>-render')
    .option('-o, --output <file>', 'the assembled WAV; default <out-dir>/<document name>.wav')
    .option('--voice <name>', 'speaker', 'ryan')
    .option('--language <lang>', "language, or 'auto'", 'auto')
    .option('--seed <n>', 'sampling seed of every part', String(DEFAULT_SEED))
    .option('--concurrency <n>', 'parts in flight at once without --queue', '8')
    .option('--attempts <n>', 'tries per part', '5')
    .option('--backoff-ms <ms>', 'first retry delay (doubles each try)', '1000');
  addSamplingFlags(addEngineFlags(render)).action(runRender);
  const worker = program
    .command('worker')
    .description('take render jobs from a Redis queue and render them on this machine\'s engines, until Ctrl+C')
    .requiredOption('--queue <url>', 'Redis URL of the render queue (redis://host:6379)')
    .option('--name <name>', "this worker's name in the queue (default host:pid)")
    .option('--concurrency <n>', 'jobs at once (default 8 per engine)')
    .option('--lock-ms <ms>', 'job lock: a worker silent this long is taken for dead and its job runs elsewhere', '30000')
    .option('--stalled-ms <ms>', 'how often to look for jobs of dead workers', '15000');
  addEngineFlags(worker).action(runWorker);
}
