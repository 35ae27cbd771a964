/**
 * The one entry point for request input: plain text becomes a single turn in the request's
 * default voice and language (as if wrapped in <speak>); SSML goes through parseSsml.
 */
import { StudioError } from '../../src-shared/errors';
import { checkInputSize, parseSsml } from './parse-ssml';
import type { SsmlParseResult } from './segments';
import { resolveSsmlOptions, type SsmlOptionsInput } from './ssml-options';

export type InputFormat = 'text' | 'ssml';

export function parseInput(input: string, format: InputFormat, options: SsmlOptionsInput = {}): SsmlParseResult {
  if (format === 'ssml') return parseSsml(input, options);
  if (format !== 'text') {
    throw new StudioError('invalid-argument', `inputFormat is '${String(format)}' but must be 'text' or 'ssml'`, { field: 'inputFormat', value: String(format), allowed: ['text', 'ssml'] });
  }
  const resolved = resolveSsmlOptions(options);
  checkInputSize(input, resolved.maxBytes);
  const text = input.replace(/\s+/g, ' ').trim();
  if (text === '') {
    throw new StudioError('invalid-argument', 'the text is empty; give the request something to say', { line: 1, column: 1, element: '', attribute: '', value: '', allowed: [], field: 'input' });
  }
  return { segments: [{ kind: 'turn', index: 0, dialogueTurnIndex: 0, text, voice: null, language: null, rate: 1, pitchSemitones: 0, volumeGainDb: 0 }], warnings: [], dialect: 'ssml11', dialectDetectedFrom: null };
}
