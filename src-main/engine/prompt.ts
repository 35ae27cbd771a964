/**
 * Builds the talker's prefill rows for a CustomVoice / VoiceDesign request (spec §2): each row is
 * a text-track id and/or a codec-track id whose embeddings the talker sums. Also resolves voice,
 * language (with the Dylan/Eric dialect rule) and instruct support, and names bad input. Pure: ids
 * come from the manifest and the tokenizer, never from constants here.
 */
import { StudioError } from '../../src-shared/errors';
import type { ModelManifest } from '../model-builder/manifest';
import type { PromptLayout } from './engine-config';
import type { TextTokenizer } from './tokenizer';

export type PromptFacts = Pick<ModelManifest, 'textTokens' | 'codecTokens' | 'speakers' | 'languages' | 'ttsModelType' | 'ttsModelSize'>;

/** One prefill position: embedding = T(textId) + C(codecId), either side may be absent. */
export interface PromptRow {
  textId: number | null;
  codecId: number | null;
}

export interface Prompt {
  rows: PromptRow[];
  /** Text ids added at decode step k (k < length); afterwards every step adds `padTextId`. */
  trailingTextIds: number[];
  padTextId: number;
  /** Number of spoken-text tokens N. */
  numTextTokens: number;
  /** The codec language id used (after the dialect rule), or null for auto. */
  languageId: number | null;
  warnings: string[];
}

export interface PromptInput {
  text: string;
  voice: string;
  language: string;
  instruct?: string;
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

function resolveVoice(facts: PromptFacts, voice: string, warnings: string[]): string | null {
  if (facts.ttsModelType === 'voice_design') {
    if (voice) warnings.push(`voice '${voice}' ignored: a VoiceDesign model takes its voice from the instruct text`);
    return null;
  }
  if (facts.ttsModelType !== 'custom_voice') {
    throw new StudioError('unsupported', `model type '${facts.ttsModelType}' is not supported; use a CustomVoice or VoiceDesign checkpoint`, {
      field: 'model',
      validValues: ['custom_voice', 'voice_design'],
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
    warnings.push(`instruct ignored: the ${facts.ttsModelSize} ${facts.ttsModelType} model has no instruct input (only 1.7B CustomVoice and VoiceDesign do)`);
    return [];
  }
  const t = facts.textTokens;
  // "<|im_start|>user\n{instruct}<|im_end|>\n", special tokens by id (spec §1.9)
  const ids = [t.imStart, ...tokenizer.encode(`user\n${instruct}`), t.imEnd, ...tokenizer.encode('\n')];
  return ids.map((textId) => ({ textId, codecId: null }));
}

/** Builds the prefill rows and the decode-time text track for one request. */
export function buildPrompt(facts: PromptFacts, tokenizer: TextTokenizer, input: PromptInput): Prompt {
  const text = input.text.trim();
  if (text.length === 0) invalid('input', 'input text is empty or only whitespace; give some text to speak', []);
  const warnings: string[] = [];
  const voice = resolveVoice(facts, input.voice, warnings);
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
    { textId: t.ttsBos, codecId: c.pad },
  ];
  let trailingTextIds: number[];
  if (input.layout === 'non-streaming') {
    // a loop, not push(...rows): a spread of an input-sized array overflows the stack on long text
    for (const textId of spokenIds) rows.push({ textId, codecId: c.pad });
    rows.push({ textId: t.ttsEos, codecId: c.pad }, { textId: t.ttsPad, codecId: c.bos });
    trailingTextIds = [];
  } else {
    rows.push({ textId: spokenIds[0], codecId: c.bos });
    trailingTextIds = [...spokenIds.slice(1), t.ttsEos];
  }
  return { rows, trailingTextIds, padTextId: t.ttsPad, numTextTokens: spokenIds.length, languageId, warnings };
}

/** The text id added to the input of decode step `step` (0-based). */
export function decodeTextId(prompt: Prompt, step: number): number {
  return step < prompt.trailingTextIds.length ? prompt.trailingTextIds[step] : prompt.padTextId;
}
