/**
 * Renders one part to its file (<outputDir>/parts/<part id>.wav, float32, the model's samples
 * without any gain; written to a temporary name and renamed, so a file that exists is complete),
 * skipping parts already there; and assembles the finished parts in order with pauses and ONE
 * loudness normalisation over the whole work — the only gain a render applies.
 */
import fs from 'node:fs';
import path from 'node:path';
import { StudioError, toStudioError, type ErrorCode } from '../../src-shared/errors';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import type { SavedVoiceConditioning } from '../../src-shared/contract/voices';
import { decodeWav, encodeWav, type WavFormat } from '../audio/wav';
import { normalizeLoudness, type LoudnessTarget } from '../audio/normalize-loudness';
import { defaultAudioConfig } from '../audio/audio-config';
import type { EngineHostApi } from '../engine-client/engine-host-api';
import type { RenderPart, RenderPlan, RenderSettings, SavedVoicesForPart } from './render-plan';

/** Where a part's audio lives (a shared folder when several machines render); an id is one file name, never a path. */
export function partFile(outputDir: string, partId: string): string {
  if (!/^[\w-]{1,128}$/.test(partId)) {
    throw new StudioError('invalid-argument', `part id '${partId.slice(0, 80)}' is not a file name (letters, digits, _ and - only); part ids come from the render plan`, { field: 'part.id' });
  }
  return path.join(outputDir, 'parts', `${partId}.wav`);
}

/** Errors a retry cannot fix: the part fails at once with its reason. */
const PERMANENT_CODES: readonly ErrorCode[] = ['invalid-argument', 'ssml-invalid', 'input-too-long', 'not-found', 'forbidden', 'unsupported', 'model-invalid', 'model-missing'];

export function isPermanentFailure(err: unknown): boolean {
  return PERMANENT_CODES.includes(toStudioError(err).code);
}

export type { SavedVoicesForPart };

/** What a rendered (or already present) part reports. */
export interface PartOutcome {
  partId: string;
  numSamples: number;
  skipped: boolean;
}

/**
 * Renders `part` on `host` unless its file exists. `requestId` must be unique among requests in
 * flight on the host (the caller adds its attempt number). `savedVoices`: the conditioning of the
 * saved voices the part names (a queue job carries them; local renders attach them in the host).
 */
export async function renderPart(
  host: Pick<EngineHostApi, 'call'>,
  part: Pick<RenderPart, 'id' | 'input' | 'inputFormat'>,
  settings: RenderSettings,
  outputDir: string,
  requestId: string,
  savedVoices: readonly SavedVoiceConditioning[] = [],
): Promise<PartOutcome> {
  const file = partFile(outputDir, part.id);
  if (fs.existsSync(file)) return { partId: part.id, numSamples: decodeWav(fs.readFileSync(file)).pcm.length, skipped: true };
  const request: SynthesisRequest = {
    requestId,
    input: part.input,
    inputFormat: part.inputFormat,
    voice: settings.voice,
    language: settings.language,
    seed: settings.seed,
    params: settings.params,
    ...(savedVoices.length > 0 ? { savedVoices } : {}),
    stream: false,
    // a long render yields to interactive requests (Speak, the API) sharing the engines
    priority: 'bulk',
    // the model's samples: the assembly normalises the whole work once (a part is never pre-gained)
    loudness: null,
  };
  const result = await host.call('synthesize', request);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${requestId.replace(/[^\w-]/g, '_')}.tmp`;
  fs.writeFileSync(temp, encodeWav(result.pcm, result.sampleRateHz, 'float32'));
  fs.renameSync(temp, file);
  return { partId: part.id, numSamples: result.pcm.length, skipped: false };
}

/** Pauses of the assembly and the loudness target; defaultAssemblyConfig() holds the defaults. */
export interface AssemblyConfig {
  paragraphPauseMs: number;
  chapterPauseMs: number;
  loudness: LoudnessTarget;
  format: WavFormat;
}

export function defaultAssemblyConfig(): AssemblyConfig {
  return { paragraphPauseMs: 400, chapterPauseMs: 1_200, loudness: defaultAudioConfig().loudness, format: 'pcm16' };
}

export interface AssembledWork {
  wav: Uint8Array;
  sampleRateHz: number;
  numSamples: number;
  measuredLufs: number | null;
  finalLufs: number | null;
  /** Where each chapter starts, in samples of the assembled work. */
  chapterStarts: number[];
}

/** Joins every part's file in plan order (all must exist) and normalises the whole once. */
export function assembleWork(plan: RenderPlan, outputDir: string, config: AssemblyConfig = defaultAssemblyConfig()): AssembledWork {
  const missing = plan.parts.filter((p) => !fs.existsSync(partFile(outputDir, p.id)));
  if (missing.length > 0) {
    throw new StudioError('not-found', `${missing.length} of ${plan.parts.length} parts are not rendered yet (first: part ${missing[0].index + 1}); run the render again`, { field: 'parts', numMissing: missing.length });
  }
  const decoded = plan.parts.map((p) => decodeWav(fs.readFileSync(partFile(outputDir, p.id))));
  const sampleRateHz = decoded[0].sampleRateHz;
  const pauseSamples = (ms: number) => Math.round((ms * sampleRateHz) / 1000);
  const chapterStarts: number[] = [];
  const pieces: Float32Array[] = [];
  let numSamples = 0;
  plan.parts.forEach((p, i) => {
    if (i > 0) {
      const pause = new Float32Array(pauseSamples(p.chapter !== plan.parts[i - 1].chapter ? config.chapterPauseMs : config.paragraphPauseMs));
      pieces.push(pause);
      numSamples += pause.length;
    }
    if (i === 0 || p.chapter !== plan.parts[i - 1].chapter) chapterStarts.push(numSamples);
    pieces.push(decoded[i].pcm);
    numSamples += decoded[i].pcm.length;
  });
  const whole = new Float32Array(numSamples);
  let offset = 0;
  for (const piece of pieces) {
    whole.set(piece, offset);
    offset += piece.length;
  }
  const normalized = normalizeLoudness(whole, sampleRateHz, config.loudness);
  return { wav: encodeWav(normalized.pcm, sampleRateHz, config.format), sampleRateHz, numSamples, measuredLufs: normalized.measuredLufs, finalLufs: normalized.finalLufs, chapterStarts };
}
