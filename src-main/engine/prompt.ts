/**
 * Builds the talker's prefill rows for a CustomVoice / VoiceDesign / Base request (spec §2; Base in
 * x-vector or in-context mode, as generate_voice_clone): each row is a text-track id and/or a
 * codec-track id (or, for Base, the speaker's vector or a reference frame's 16 codes) whose
 * embeddings the talker sums. Also resolves voice,
 * language (with the Dylan/Eric dialect rule) and instruct support, and names bad input. Pure: ids
 * come from the manifest and the tokenizer, never from constants here.
 */
import { StudioError } from '../../src-shared/errors';
import type { ModelManifest } from '../model-format/manifest';
import type { PromptLayout } from './engine-config';
import type { TextTokenizer } from './tokenizer';
import { modelTypeLabel } from '../../src-shared/model-labels';

export type PromptFacts = Pick<ModelManifest, 'textTokens' | 'codecTokens' | 'speakers' | 'languages' | 'ttsModelType' | 'ttsModelSize'> & {
  /** The x-vector width a Base model takes (talker.hiddenSize); checked when given. */
  talkerHiddenSize?: number;
  /** Codes per reference frame (numCodeGroups, 16) and codes per group (2048); reference codes are checked against them when given. */
  numCodeGroups?: number;
  codebookSize?: number;
};

/** One prefill position: embedding = T(textId) + C(codecId) (+ codecVector), either side may be absent. */
export interface PromptRow {
  textId: number | null;
  codecId: number | null;
  /** Base only: the speaker embedding, added on the codec track in place of a speaker id's row. */
  codecVector?: Float32Array;
  /** Base in-context mode: a reference frame's codes (codebook 0 first), embedded on the codec track as a decode step embeds a frame. */
  codecFrame?: readonly number[];
}

export interface Prompt {
  rows: PromptRow[];
  /** Text ids added at decode step k (k < length); afterwards every step adds `padTextId`. */
  trailingTextIds: number[];
  padTextId: number;
  /** Number of spoken-text tokens N. */
  numTextTokens: number;
  /**
   * Leading rows that depend only on the model, voice (speaker, x-vector, reference clip and transcript),
   * language and instruction, never on the spoken text: the prompt-prefix KV cache keys and reuses them
   * (engine/prefix-prefill.ts). At most rows.length − 2 (MIN_PROMPT_SUFFIX_ROWS).
   */
  numPrefixRows: number;
  /** The codec language id used (after the dialect rule), or null for auto. */
  languageId: number | null;
  warnings: string[];
}

export interface PromptInput {
  text: string;
  voice: string;
  language: string;
  instruct?: string;
  /** Base checkpoints: the x-vector of the voice to clone (talker.hiddenSize values). */
  speakerEmbedding?: Float32Array;
  /** Base, in-context mode: the reference clip's codes [numFrames][numCodeGroups] and its transcript (both or neither). */
  refCodes?: readonly (readonly number[])[];
  refText?: string;
  layout: PromptLayout;
}

/** Languages a request may name: 'auto' plus every codec language that is not a dialect. */
export function listLanguages(facts: Pick<PromptFacts, 'languages'>): string[] {
  return ['auto', ...Object.keys(facts.languages).filter((name) => !name.includes('dialect'))];
}

export function supportsInstruct(facts: Pick<PromptFacts, 'ttsModelType' | 'ttsModelSize'>): boolean {
  return facts.ttsModelType === 'voice_design' || (facts.ttsModelType === 'custom_voice' && facts.ttsModelSize !== '0b6');
}

function invalid(field: string, message: string, validValues: string[]): never {
  throw new StudioError('invalid-argument', message, { field, validValues });
}

/**
 * Rows a prompt keeps after its cached prefix. Measured on the tiny model (CPU, fp32): a prefill run
 * continuing a prefix gives the bytes of one whole-prompt run when it has 2 or more rows, but not
 * with 1 (a one-row run takes another MatMul path), so the suffix is never shorter than 2.
 */
export const MIN_PROMPT_SUFFIX_ROWS = 2;

/** The codec language id after the dialect rule: chinese/auto + a dialect speaker → the dialect's id. */
export function resolveLanguageId(facts: PromptFacts, voice: string | null, language: string): number | null {
  const key = language.toLowerCase();
  const valid = listLanguages(facts);
  if (!valid.includes(key)) invalid('language', `unknown language '${language}'; valid languages: ${valid.join(', ')}`, valid);
  const dialect = voice ? facts.speakers[voice]?.dialect : null;
  if (dialect && (key === 'chinese' || key === 'auto') && facts.languages[dialect] !== undefined) return facts.languages[dialect];
  return key === 'auto' ? null : facts.languages[key];
}

/** Spoken-text ids exactly as the official path slices them out of "assistant\n{text}". */
export function encodeSpokenText(tokenizer: TextTokenizer, text: string): { roleIds: number[]; spokenIds: number[] } {
  const roleIds = tokenizer.encode('assistant\n');
  const all = tokenizer.encode(`assistant\n${text}`);
  const prefixMatches = roleIds.every((id, i) => all[i] === id);
  if (!prefixMatches) throw new StudioError('internal', `tokenizer merged the role prefix with the text: ${JSON.stringify(text.slice(0, 20))}`);
  return { roleIds, spokenIds: all.slice(roleIds.length) };
}

function codecThinkBlock(facts: PromptFacts, languageId: number | null): number[] {
  const c = facts.codecTokens;
  return languageId === null ? [c.nothink, c.thinkBos, c.thinkEos] : [c.think, c.thinkBos, languageId, c.thinkEos];
}

/** The speaker a CustomVoice prompt names (checked against the checkpoint); null for VoiceDesign and Base, which take no speaker. */
function promptSpeaker(facts: PromptFacts, voice: string, warnings: string[]): string | null {
  if (facts.ttsModelType === 'voice_design') {
    if (voice) warnings.push(`voice '${voice}' ignored: a VoiceDesign model takes its voice from the instruct text`);
    return null;
  }
  if (facts.ttsModelType === 'base') {
    if (voice) warnings.push(`voice '${voice}' ignored: a Base model clones the voice of its speaker embedding`);
    return null;
  }
  if (facts.ttsModelType !== 'custom_voice') {
    throw new StudioError('unsupported', `model type '${facts.ttsModelType}' is not supported; use a CustomVoice, VoiceDesign or Base checkpoint`, {
      field: 'model',
      validValues: ['custom_voice', 'voice_design', 'base'],
    });
  }
  const key = voice.toLowerCase();
  const valid = Object.keys(facts.speakers);
  if (!facts.speakers[key]) invalid('voice', `unknown voice '${voice}'; valid voices: ${valid.join(', ')}`, valid);
  return key;
}

function instructRows(facts: PromptFacts, tokenizer: TextTokenizer, instruct: string | undefined, warnings: string[]): PromptRow[] {
  if (instruct === undefined || instruct.length === 0) return [];
  if (!supportsInstruct(facts)) {
    warnings.push(`instruct ignored: the ${modelTypeLabel(facts.ttsModelType, facts.ttsModelSize)} model has no instruct input (only CustomVoice 1.7B and VoiceDesign do)`);
    return [];
  }
  const t = facts.textTokens;
  // "<|im_start|>user\n{instruct}<|im_end|>\n", special tokens by id (spec §1.9)
  const ids = [t.imStart, ...tokenizer.encode(`user\n${instruct}`), t.imEnd, ...tokenizer.encode('\n')];
  return ids.map((textId) => ({ textId, codecId: null }));
}

/** Base needs a speaker embedding (x-vector mode), the other types refuse one; returns it or null. */
function checkSpeakerEmbedding(facts: PromptFacts, embedding: Float32Array | undefined): Float32Array | null {
  const isBase = facts.ttsModelType === 'base';
  if (!isBase) {
    if (embedding) invalid('speakerEmbedding', `a ${facts.ttsModelType} model has no speaker-embedding input; cloning a voice needs a Base checkpoint`, []);
    return null;
  }
  if (!embedding) invalid('speakerEmbedding', 'a Base model clones a voice: pass the speakerEmbedding of a reference clip (make one with the model\'s speaker encoder)', []);
  const width = facts.talkerHiddenSize;
  if (width !== undefined && embedding.length !== width) {
    invalid('speakerEmbedding', `speakerEmbedding has ${embedding.length} values but this model's talker is ${width} wide; make the embedding with this model's speaker encoder`, []);
  }
  if (embedding.some((v) => !Number.isFinite(v))) invalid('speakerEmbedding', 'speakerEmbedding holds a non-finite value; make it again from the reference clip', []);
  return embedding;
}

/** Base in-context mode needs both reference codes and text, each well formed; returns them or null (x-vector mode). */
function checkReference(facts: PromptFacts, input: PromptInput): { refCodes: readonly (readonly number[])[]; refText: string } | null {
  const { refCodes, refText } = input;
  if (refCodes === undefined && refText === undefined) return null;
  if (facts.ttsModelType !== 'base') invalid('refCodes', `a ${facts.ttsModelType} model has no in-context cloning; reference codes and text need a Base checkpoint`, []);
  if (refCodes === undefined || refCodes.length === 0) invalid('refCodes', 'refText was given without refCodes: in-context cloning needs the reference clip\'s codes too (make a clone prompt from the clip)', []);
  const text = (refText ?? '').trim();
  if (text.length === 0) invalid('refText', 'refCodes were given without refText: in-context cloning needs the transcript of the reference clip (or clone in x-vector mode, without codes)', []);
  const width = facts.numCodeGroups;
  const size = facts.codebookSize;
  refCodes.forEach((frame, t) => {
    if (!Array.isArray(frame) || (width !== undefined && frame.length !== width)) {
      invalid('refCodes', `refCodes frame ${t} has ${Array.isArray(frame) ? frame.length : 'no'} codes but this model takes ${width} per frame; make the clone prompt with this model`, []);
    }
    for (const code of frame) {
      if (!Number.isInteger(code) || code < 0 || (size !== undefined && code >= size)) invalid('refCodes', `refCodes frame ${t} holds ${String(code)}; codes are integers in [0, ${size ?? '?'}); make the clone prompt again`, []);
    }
  });
  return { refCodes, refText: text };
}

/**
 * The in-context rows after the speaker prefix (generate_icl_prompt): text = reference text + spoken
 * text + tts_eos, codec = codec_bos + one row per reference frame. 'streaming-text' (non_streaming_mode
 * False, generate_voice_clone's default) lays them side by side, text padded with tts_pad or its
 * overflow moved to the decode track; 'non-streaming' puts all text over codec_pad, then the codec rows over tts_pad.
 */
function inContextRows(facts: PromptFacts, textIds: number[], refCodes: readonly (readonly number[])[], layout: PromptLayout): { rows: PromptRow[]; trailingTextIds: number[] } {
  const t = facts.textTokens;
  const c = facts.codecTokens;
  const text = [...textIds, t.ttsEos];
  const codec: Omit<PromptRow, 'textId'>[] = [{ codecId: c.bos }, ...refCodes.map((frame) => ({ codecId: null, codecFrame: frame }))];
  if (layout === 'non-streaming') {
    const rows: PromptRow[] = text.map((textId) => ({ textId, codecId: c.pad }));
    for (const part of codec) rows.push({ textId: t.ttsPad, ...part });
    return { rows, trailingTextIds: [] };
  }
  const rows = codec.map((part, i) => ({ textId: i < text.length ? text[i] : t.ttsPad, ...part }));
  return { rows, trailingTextIds: text.slice(codec.length) };
}

/** Builds the prefill rows and the decode-time text track for one request. */
export function buildPrompt(facts: PromptFacts, tokenizer: TextTokenizer, input: PromptInput): Prompt {
  const text = input.text.trim();
  if (text.length === 0) invalid('input', 'input text is empty or only whitespace; give some text to speak', []);
  const warnings: string[] = [];
  const voice = promptSpeaker(facts, input.voice, warnings);
  const speakerEmbedding = checkSpeakerEmbedding(facts, input.speakerEmbedding);
  const reference = checkReference(facts, input);
  const languageId = resolveLanguageId(facts, voice, input.language);
  const { roleIds, spokenIds } = encodeSpokenText(tokenizer, text);
  const t = facts.textTokens;
  const c = facts.codecTokens;
  const codec = [...codecThinkBlock(facts, languageId), ...(voice ? [facts.speakers[voice].codecId] : []), c.pad, c.bos];
  const rows: PromptRow[] = [
    ...instructRows(facts, tokenizer, input.instruct, warnings),
    { textId: t.imStart, codecId: null },
    ...roleIds.map((textId) => ({ textId, codecId: null })),
    // think block + speaker over tts_pad, then tts_bos over codec_pad (codec[n-2])
    ...codec.slice(0, -2).map((codecId) => ({ textId: t.ttsPad, codecId })),
    // Base: the x-vector takes the speaker's place, after the think block (generate: speaker_embed)
    ...(speakerEmbedding ? [{ textId: t.ttsPad, codecId: null, codecVector: speakerEmbedding }] : []),
    { textId: t.ttsBos, codecId: c.pad },
  ];
  let trailingTextIds: number[];
  let numPrefixRows = rows.length;
  if (reference) {
    // the reference transcript is sliced like the spoken text ("assistant\n{refText}" minus the role ids)
    const refIds = encodeSpokenText(tokenizer, reference.refText).spokenIds;
    const icl = inContextRows(facts, [...refIds, ...spokenIds], reference.refCodes, input.layout);
    // the rows whose text is the reference transcript's (non-streaming: one each; side by side: at most one per codec row) hold no spoken text
    numPrefixRows += input.layout === 'non-streaming' ? refIds.length : Math.min(refIds.length, icl.rows.length);
    for (const r of icl.rows) rows.push(r);
    trailingTextIds = icl.trailingTextIds;
  } else if (input.layout === 'non-streaming') {
    // a loop, not push(...rows): a spread of an input-sized array overflows the stack on long text
    for (const textId of spokenIds) rows.push({ textId, codecId: c.pad });
    rows.push({ textId: t.ttsEos, codecId: c.pad }, { textId: t.ttsPad, codecId: c.bos });
    trailingTextIds = [];
  } else {
    rows.push({ textId: spokenIds[0], codecId: c.bos });
    trailingTextIds = [...spokenIds.slice(1), t.ttsEos];
  }
  numPrefixRows = Math.max(0, Math.min(numPrefixRows, rows.length - MIN_PROMPT_SUFFIX_ROWS));
  return { rows, trailingTextIds, padTextId: t.ttsPad, numTextTokens: spokenIds.length, numPrefixRows, languageId, warnings };
}

/** The text id added to the input of decode step `step` (0-based). */
export function decodeTextId(prompt: Prompt, step: number): number {
  return step < prompt.trailingTextIds.length ? prompt.trailingTextIds[step] : prompt.padTextId;
}
