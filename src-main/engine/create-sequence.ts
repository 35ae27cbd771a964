/**
 * Turns a SynthesisRequest into a waiting Sequence, or throws a StudioError naming the bad field:
 * input format, empty text, unknown voice or language, seed, sampling params, and text longer than
 * the engine's token budget — first by its length in characters (before the tokenizer runs, so
 * oversized input costs nothing), then exactly in tokens. Pure apart from the tokenizer.
 */
import { StudioError } from '../../src-shared/errors';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import type { ModelManifest } from '../model-builder/manifest';
import type { EngineConfig } from './engine-config';
import { buildPrompt } from './prompt';
import { isValidSeed } from './sampling/counter-rng';
import { resolveSamplingParams } from './sampling/sampling-params';
import { maxFramesFor, type Sequence } from './sequence';
import type { TextTokenizer } from './tokenizer';

/**
 * Characters (UTF-16 code units) one text token is allowed to stand for in the cheap length check
 * that runs before tokenizing: text longer than maxSequenceTokens × 8 characters is refused unread.
 * Qwen2 BPE averages ~4.5 characters per token on English prose and 1–2 on CJK (measured with the
 * bundled vocabulary); only runs of spaces or symbols reach more (up to 128 per token), and text made
 * of those is not speech. Tokenizing costs up to ~12 µs per character, so this also bounds the time
 * one request can hold the engine host's event loop (32,768 characters by default: well under 0.5 s).
 */
export const MAX_CHARS_PER_TEXT_TOKEN = 8;

/** Refuses text that cannot fit the token budget by its length alone, before it is tokenized. */
function checkLengthBeforeTokenizing(field: 'input' | 'instruct', text: string, maxPositions: number, maxSequenceTokens: number): void {
  const maxChars = maxPositions * MAX_CHARS_PER_TEXT_TOKEN;
  if (text.length <= maxChars) return;
  throw new StudioError(
    'input-too-long',
    `${field === 'input' ? 'text' : 'instruct'} is ${text.length.toLocaleString('en-US')} characters but at most ${maxChars.toLocaleString('en-US')} characters fit the token budget (engine.maxSequenceTokens ${maxSequenceTokens.toLocaleString('en-US')} × ${MAX_CHARS_PER_TEXT_TOKEN} characters per token); split the text into shorter requests (sentences or paragraphs) or raise maxSequenceTokens`,
    { field, numChars: text.length, maxChars, maxSequenceTokens },
  );
}

export function createSequence(
  id: number,
  request: SynthesisRequest,
  manifest: ModelManifest,
  tokenizer: TextTokenizer,
  config: EngineConfig,
  nowMs: number,
): Sequence {
  if (request.inputFormat !== 'text') {
    throw new StudioError('invalid-argument', `inputFormat '${request.inputFormat}' is not handled by the engine; parse SSML into turns first and send each as text`, {
      field: 'inputFormat',
      validValues: ['text'],
    });
  }
  if (typeof request.input !== 'string') {
    throw new StudioError('invalid-argument', 'input must be a string of text to speak', { field: 'input' });
  }
  if (!isValidSeed(request.seed)) {
    throw new StudioError('invalid-argument', `seed is ${String(request.seed)}; it must be an integer in [0, 2^53)`, { field: 'seed' });
  }
  const maxPositions = Math.min(config.maxSequenceTokens, manifest.talker.maxPositionEmbeddings);
  checkLengthBeforeTokenizing('input', request.input, maxPositions, config.maxSequenceTokens);
  if (typeof request.instruct === 'string') checkLengthBeforeTokenizing('instruct', request.instruct, maxPositions, config.maxSequenceTokens);
  const params = resolveSamplingParams(manifest.generation, request.params);
  if (request.speakerEmbedding !== undefined && !Array.isArray(request.speakerEmbedding)) {
    throw new StudioError('invalid-argument', 'speakerEmbedding must be an array of numbers', { field: 'speakerEmbedding' });
  }
  const prompt = buildPrompt({ ...manifest, talkerHiddenSize: manifest.talker.hiddenSize }, tokenizer, {
    text: request.input,
    voice: request.voice,
    language: request.language,
    instruct: request.instruct,
    speakerEmbedding: request.speakerEmbedding ? Float32Array.from(request.speakerEmbedding) : undefined,
    layout: config.promptLayout,
  });
  const numRows = prompt.rows.length;
  // a sequence needs its prompt rows plus at least minNewTokens + 1 frames (EOS is blocked before that)
  const numRowsAllowed = maxPositions - manifest.generation.minNewTokens - 1;
  if (numRows > numRowsAllowed) {
    throw new StudioError(
      'input-too-long',
      `text is ${prompt.numTextTokens.toLocaleString('en-US')} tokens (${numRows} prompt rows) but engine.maxSequenceTokens allows ${numRowsAllowed} prompt rows; split the text into shorter requests (sentences or paragraphs) or raise maxSequenceTokens`,
      { field: 'input', numTextTokens: prompt.numTextTokens, numPromptRows: numRows, maxSequenceTokens: config.maxSequenceTokens },
    );
  }
  return {
    id,
    request,
    params,
    seed: request.seed,
    prompt,
    status: 'waiting',
    codes: [],
    pending: null,
    maxFrames: maxFramesFor(prompt.numTextTokens, numRows, params.maxNewTokens, { ...config, maxSequenceTokens: maxPositions }),
    truncated: false,
    numFramesDecoded: 0,
    pcmChunks: [],
    numChunksEmitted: 0,
    times: { enqueuedMs: nowMs, admittedMs: null, firstAudioMs: null, finishedMs: null },
    warnings: [...prompt.warnings],
  };
}
