/**
 * `studio bench`: the sustained-concurrency benchmark (closed loop, burst, ramp, open loop) against
 * the in-process engine host under named engine configs, or any HTTP TTS server. Writes the JSON,
 * Markdown and HTML reports, stores the run in the library database, shows progress on a TTY.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { benchConfigFromCliOptions, type BenchCliOptions } from '../bench/bench-cli-options';
import { createTtyProgressRenderer } from '../bench/bench-progress';
import { renderMarkdown } from '../bench/report-markdown';
import { runBenchmark } from '../bench/run-benchmark';
import { writeBenchReports } from '../bench/write-reports';
import { createBenchRunStore } from '../library/bench-run-store';
import { openLibraryDb } from '../library/library-db';
import { defaultUserDataDir } from '../platform/paths';
import { parseEngineConfig } from './engine-options';
import { createInprocVariant, inprocVariantFactories } from '../app/inproc-bench-variants';
import { listProviderChoices } from '../../src-shared/provider-names';

interface BenchCommandOptions extends BenchCliOptions {
  model?: string;
  provider?: string;
  store?: boolean;
  engineConfig?: string;
}

async function runBench(opts: BenchCommandOptions): Promise<void> {
  const { model, provider, store, engineConfig, ...cli } = opts;
  const variantOptions = { model, provider, engineConfig: parseEngineConfig(engineConfig), log: () => {} };
  const { config, outDir } = benchConfigFromCliOptions(cli, {
    inprocVariants: inprocVariantFactories(variantOptions),
    defaultInprocVariant: () => createInprocVariant('batched', variantOptions),
  });
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  const record = await runBenchmark(config, { onProgress: createTtyProgressRenderer(process.stderr), signal: abort.signal });
  process.stderr.write('\n');
  const dir = path.resolve(outDir ?? 'bench-results');
  const files = await writeBenchReports(record, dir);
  if (store !== false) {
    const library = openLibraryDb(path.join(defaultUserDataDir(), 'library'));
    try {
      createBenchRunStore(library).save(record);
    } finally {
      library.dispose();
    }
  }
  console.log(renderMarkdown(record));
  console.log(`reports: ${files.jsonPath}, ${files.markdownPath}, ${files.htmlPath}`);
}

export function registerBench(program: Command): void {
  program
    .command('bench')
    .description('run the sustained-concurrency benchmark (docs: benchmark protocol) and write JSON, Markdown and HTML reports')
    .option('--target <kind>', 'inproc (the studio engine host) or http', undefined)
    .option('--url <urls>', 'http target URL(s): one, or two as before,after')
    .option('--api <api>', 'http API shape: studio (/api/v1/tts) or openai (/v1/audio/speech)')
    .option('--variants <names>', 'inproc: serial,batched; http: names for the URLs')
    .option('--workloads <names>', 'plain,processed')
    .option('--clients <counts>', 'closed-loop client counts, e.g. 4,8')
    .option('--window <s>', 'steady window in seconds (default 90)')
    .option('--passes <n>', 'passes, order reversed on pass 2 (default 2)')
    .option('--mode <mode>', 'closed, burst, ramp or open')
    .option('--rate <r>', 'open loop: arrivals per second (Poisson)')
    .option('--slo <s>', 'open loop: latency objective in seconds, for goodput')
    .option('--ramp <counts>', 'ramp: client counts, e.g. 1,2,5,10,20')
    .option('--timeout <s>', 'per-request timeout in seconds')
    .option('--stream', 'ask for streamed audio (first-audio latency)')
    .option('--voice <name>', 'voice for every request')
    .option('--language <lang>', 'language for every request')
    .option('--allow-remote', 'allow a non-loopback http target')
    .option('--out <dir>', 'report folder (default ./bench-results)')
    .option('--model <dir>', "inproc: model folder or 'embedded:tiny'")
    .option('--provider <name>', `inproc: execution provider (${listProviderChoices()})`)
    .option('--engine-config <json>', 'inproc: engine settings for every variant, e.g. {"minFramesCap":20}')
    .option('--no-store', 'do not save the run in the library database')
    .action(runBench);
}
