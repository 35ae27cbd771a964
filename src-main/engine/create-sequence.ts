/**
 * Turns a SynthesisRequest into a waiting Sequence, or throws a StudioError naming the bad field:
 * input format, empty text, unknown voice or language, seed, sampling params, and text longer than
 * the engine's token budget — first by its UTF-8 size (before the tokenizer runs, so oversized
 * input costs nothing), then exactly in tokens. Pure apart from the tokenizer.
 */
import { StudioError } from '../../src-shared/errors';
import { formatCount } from '../../src-shared/format-count';
import type { SynthesisRequest } from '../../src-shared/synthesis';
import type { ModelManifest } from '../model-format/manifest';
import type { EngineConfig } from './engine-config';
import { buildPrompt } from './prompt';
import { isValidSeed } from './sampling/counter-rng';
import { resolveSamplingParams } from './sampling/sampling-params';
import { maxFramesFor, type Sequence } from './sequence';
import type { TextTokenizer } from './tokenizer';

/**
 * UTF-8 bytes one text token may stand for in the cheap length check that runs before tokenizing:
 * text over maxSequenceTokens × 8 bytes is refused unread. BPE tokens are byte strings; measured with
 * the bundled Qwen2 vocabulary, prose averages ~4.5 bytes per token in English and 4–6 in CJK (three
 * bytes a character, 1.3–2 characters a token); only runs of spaces or symbols reach more (up to
 * 128), and text made of those is not speech. Text near the budget could not be spoken anyway (its
 * frames share maxSequenceTokens with the prompt), so the margin costs no real request. It also
 * bounds how long one request holds the host's event loop: 32,768 bytes by default, a fraction of a
 * second to tokenize (docs/benchmarks.md), against 15–25 s for the 1 MB once tokenized in full.
 */
export const MAX_BYTES_PER_TEXT_TOKEN = 8;

/** Refuses text that cannot fit the token budget by its UTF-8 size alone, before it is tokenized. */
function checkSizeBeforeTokenizing(field: 'input' | 'instruct' | 'refText', text: string, maxPositions: number, maxSequenceTokens: number): void {
  const maxBytes = maxPositions * MAX_BYTES_PER_TEXT_TOKEN;
  // a string's UTF-16 length never exceeds its UTF-8 size, so a long one is refused without counting
  const numBytes = text.length > maxBytes ? text.length : Buffer.byteLength(text, 'utf8');
  if (numBytes <= maxBytes) return;
  throw new StudioError(
    'input-too-long',
    `${field === 'input' ? 'text' : field} is ${text.length > maxBytes ? 'at least ' : ''}${formatCount(numBytes)} bytes (UTF-8) but at most ${formatCount(maxBytes)} bytes fit the token budget (engine.maxSequenceTokens ${formatCount(maxSequenceTokens)} × ${MAX_BYTES_PER_TEXT_TOKEN} bytes per token); split the text into shorter requests (sentences or paragraphs) or raise maxSequenceTokens`,
    { field, numBytesAtLeast: numBytes, maxBytes, maxSequenceTokens },
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
  checkSizeBeforeTokenizing('input', request.input, maxPositions, config.maxSequenceTokens);
  if (typeof request.instruct === 'string') checkSizeBeforeTokenizing('instruct', request.instruct, maxPositions, config.maxSequenceTokens);
  if (typeof request.refText === 'string') checkSizeBeforeTokenizing('refText', request.refText, maxPositions, config.maxSequenceTokens);
  if (request.refCodes !== undefined && !Array.isArray(request.refCodes)) {
    throw new StudioError('invalid-argument', 'refCodes must be an array of frames, each an array of codes', { field: 'refCodes' });
  }
  if (request.refText !== undefined && typeof request.refText !== 'string') {
    throw new StudioError('invalid-argument', 'refText must be a string: the transcript of the reference clip', { field: 'refText' });
  }
  const params = resolveSamplingParams(manifest.generation, request.params);
  if (request.speakerEmbedding !== undefined && !Array.isArray(request.speakerEmbedding)) {
    throw new StudioError('invalid-argument', 'speakerEmbedding must be an array of numbers', { field: 'speakerEmbedding' });
  }
  const prompt = buildPrompt({ ...manifest, talkerHiddenSize: manifest.talker.hiddenSize, numCodeGroups: manifest.numCodeGroups, codebookSize: manifest.codePredictor.vocabSize }, tokenizer, {
    text: request.input,
    voice: request.voice,
    language: request.language,
    instruct: request.instruct,
    speakerEmbedding: request.speakerEmbedding ? Float32Array.from(request.speakerEmbedding) : undefined,
    refCodes: request.refCodes,
    refText: request.refText,
    layout: config.promptLayout,
  });
  const numRows = prompt.rows.length;
  // a sequence needs its prompt rows plus at least minNewTokens + 1 frames (EOS is blocked before that)
  const numRowsAllowed = maxPositions - manifest.generation.minNewTokens - 1;
  if (numRows > numRowsAllowed) {
    throw new StudioError(
      'input-too-long',
      `text is ${formatCount(prompt.numTextTokens)} tokens (${numRows} prompt rows) but engine.maxSequenceTokens allows ${numRowsAllowed} prompt rows; split the text into shorter requests (sentences or paragraphs) or raise maxSequenceTokens`,
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
    codecPrefix: request.refCodes ? request.refCodes.map((frame) => [...frame]) : [],
    numFramesDecoded: 0,
    pcmChunks: [],
    numChunksEmitted: 0,
    times: { enqueuedMs: nowMs, admittedMs: null, firstAudioMs: null, finishedMs: null },
    warnings: [...prompt.warnings],
  };
}
