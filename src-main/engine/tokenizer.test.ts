// Tokenizer vectors, checked three ways: hand-verified ids, tokenizer.json vs vocab.json + merges.txt,
// and a slow reference BPE written here from the algorithm (NFC, regex split, byte alphabet, ranked merges).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundledTokenizerDir, loadBundledQwen2Tokenizer, loadTextTokenizer, type TextTokenizer } from './tokenizer';

// GPT-2 byte alphabet: printable bytes map to themselves, the rest to 256 + n.
function byteAlphabet(): string[] {
  const table: string[] = new Array(256);
  let next = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
    table[b] = String.fromCodePoint(printable ? b : 256 + next++);
  }
  return table;
}

// The Qwen2 split regex with its (?i:…) group expanded, since JS regexes have no inline flags.
const SPLIT = new RegExp(
  "'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD]|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  'gu',
);

function referenceEncode(text: string, vocab: Record<string, number>, ranks: Map<string, number>): number[] {
  const alphabet = byteAlphabet();
  const ids: number[] = [];
  for (const piece of text.normalize('NFC').match(SPLIT) ?? []) {
    let parts = [...new TextEncoder().encode(piece)].map((b) => alphabet[b]);
    for (;;) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i + 1 < parts.length; i++) {
        const rank = ranks.get(`${parts[i]} ${parts[i + 1]}`);
        if (rank !== undefined && rank < bestRank) [best, bestRank] = [i, rank];
      }
      if (best < 0) break;
      parts = [...parts.slice(0, best), parts[best] + parts[best + 1], ...parts.slice(best + 2)];
    }
    for (const p of parts) ids.push(vocab[p]);
  }
  return ids;
}

const CORPUS = [
  'synthesis',
  'Hello, world! How are you today?',
  '你好，世界。今天天气很好。',
  'こんにちは、世界。カタカナとひらがな。',
  '안녕하세요 세계',
  'Mixed 中文 and English, 123 numbers, and ｆｕｌｌｗｉｄｔｈ.',
  'Emoji 🎉🙂 and flags 🇩🇪 with ZWJ 👩‍👩‍👧.',
  "It's we'll they've I'M don't",
  '  leading and trailing spaces  ',
  'tabs\tand\nnewlines\r\n\n  end',
  'e\u0301 composed by NFC, Å vs A\u030a',
];

describe('text tokenizer', () => {
  let bundled: TextTokenizer;
  let fromVocabMerges: TextTokenizer;
  let vocab: Record<string, number>;
  let ranks: Map<string, number>;

  beforeAll(() => {
    bundled = loadBundledQwen2Tokenizer();
    const json = JSON.parse(fs.readFileSync(path.join(bundledTokenizerDir(), 'tokenizer.json'), 'utf8'));
    vocab = json.model.vocab;
    const merges: string[] = json.model.merges.map((m: string[] | string) => (Array.isArray(m) ? m.join(' ') : m));
    ranks = new Map(merges.map((m, i) => [m, i]));
    // A checkpoint-style folder with vocab.json + merges.txt only (the second loading path).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tok-'));
    fs.writeFileSync(path.join(dir, 'vocab.json'), JSON.stringify(vocab));
    fs.writeFileSync(path.join(dir, 'merges.txt'), `#version: 0.2\n${merges.join('\n')}\n`);
    fromVocabMerges = loadTextTokenizer(dir);
  });

  it('encodes "synthesis" as [20339, 13189]', () => {
    expect(bundled.encode('synthesis')).toEqual([20339, 13189]);
  });

  it('encodes Chinese, Japanese, mixed and emoji text to known ids', () => {
    expect(bundled.encode('你好，世界')).toEqual([108386, 3837, 99489]);
    expect(bundled.encode('こんにちは世界')).toEqual([89015, 99489]);
    // digits are split one by one by the \p{N} alternative: "1","2","3" = 16,17,18; " " = 220
    expect(bundled.encode('Hello 世界 123!')).toEqual([9707, 220, 99489, 220, 16, 17, 18, 0]);
    expect(bundled.encode('🎉 party')).toEqual([144841, 4614]);
  });

  it('keeps leading and trailing whitespace as their own pieces', () => {
    // "  hi  " splits into " ", " hi", "  " by the \s+(?!\S) rule: 220, 15588, 256
    expect(bundled.encode('  hi  ')).toEqual([220, 15588, 256]);
  });

  it('normalises to NFC before splitting', () => {
    expect(bundled.encode('e\u0301')).toEqual(bundled.encode('\u00e9'));
  });

  it('gives the same ids from tokenizer.json and from vocab.json + merges.txt', () => {
    for (const text of CORPUS) expect(fromVocabMerges.encode(text), text).toEqual(bundled.encode(text));
  });

  it('matches a slow reference BPE on every corpus line', () => {
    for (const text of CORPUS) expect(bundled.encode(text), text).toEqual(referenceEncode(text, vocab, ranks));
  });

  it('decodes back to the NFC text', () => {
    for (const text of CORPUS) expect(bundled.decode(bundled.encode(text))).toBe(text.normalize('NFC'));
  });

  it('names the missing files when a folder has no tokenizer', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tok-empty-'));
    expect(() => loadTextTokenizer(dir)).toThrow(/vocab\.json.*merges\.txt.*not found/);
  });
});
