/**
 * The two built-in workloads of benchmark-protocol.md, as request templates without a seed:
 *   plain     — one fixed English paragraph (about 15 s of speech), one voice;
 *   processed — SSML with two turns, each with its own prosody rate/pitch/volume, a 120 ms break
 *               between them, read as W3C SSML 1.1 in strict mode (PROCESSED_SSML_OPTIONS, sent with
 *               every request); the studio applies whole-recording loudness normalisation to SSML output.
 * Pure data; the harness adds the seed (9001 warm-up, 42 golden and load).
 */
import { StudioError } from '../../src-shared/errors';
import type { BenchSynthesisRequest } from './target';

export type BuiltInWorkloadName = 'plain' | 'processed';

export interface BenchWorkload {
  name: string;
  request: Omit<BenchSynthesisRequest, 'seed' | 'stream'>;
}

export const BUILT_IN_WORKLOAD_NAMES: readonly BuiltInWorkloadName[] = ['plain', 'processed'];

/** About 44 words: at a typical 2.5–3 words/s of read speech this is 15–18 s of audio. */
export const PLAIN_PARAGRAPH =
  'The lighthouse keeper climbed the spiral stairs every evening at dusk. ' +
  'He trimmed the wick, polished the great lens, and watched the beam sweep across the water. ' +
  'Ships he would never meet passed safely in the dark, ' +
  'and that quiet certainty was reward enough for him.';

/** The processed workload's reading, explicit so a run does not depend on auto-detection. */
export const PROCESSED_SSML_OPTIONS = Object.freeze({ dialect: 'ssml11', lenient: false } as const);

export function processedSsml(voice: string): string {
  return [
    '<speak version="1.1" xml:lang="en-US">',
    `  <voice name="${voice}">`,
    '    <prosody rate="1.1" pitch="+2st" volume="+2dB">Welcome back to the studio. Today we are testing two turns in one document.</prosody>',
    '  </voice>',
    '  <break time="120ms"/>',
    `  <voice name="${voice}">`,
    '    <prosody rate="0.9" pitch="-2st" volume="-3dB">The second turn is slower and lower, and the whole recording is normalised for loudness.</prosody>',
    '  </voice>',
    '</speak>',
  ].join('\n');
}

export function builtInWorkload(name: string, voice: string, language: string): BenchWorkload {
  switch (name) {
    case 'plain':
      return { name, request: { text: PLAIN_PARAGRAPH, voice, language } };
    case 'processed':
      return { name, request: { ssml: processedSsml(voice), ssmlOptions: { ...PROCESSED_SSML_OPTIONS }, voice, language } };
    default:
      throw new StudioError('invalid-argument', `workload "${name}" is unknown; built-in workloads are ${BUILT_IN_WORKLOAD_NAMES.join(', ')}`, {
        field: 'workloads',
        value: name,
        valid: BUILT_IN_WORKLOAD_NAMES,
      });
  }
}
