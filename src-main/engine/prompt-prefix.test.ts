// The prompt's cacheable prefix (numPrefixRows): the leading rows that the spoken text never changes,
// for CustomVoice with and without instruct, in both layouts, and Base in-context prompts, always
// leaving at least MIN_PROMPT_SUFFIX_ROWS rows; ids of the official 0.6B / 1.7B CustomVoice config.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPrompt, MIN_PROMPT_SUFFIX_ROWS, type Prompt, type PromptFacts, type PromptInput } from './prompt';
import { loadBundledQwen2Tokenizer, type TextTokenizer } from './tokenizer';

const FACTS: PromptFacts = {
  ttsModelType: 'custom_voice',
  ttsModelSize: '1b7',
  textTokens: { imStart: 151644, imEnd: 151645, ttsPad: 151671, ttsBos: 151672, ttsEos: 151673 },
  codecTokens: { eos: 2150, think: 2154, nothink: 2155, thinkBos: 2156, thinkEos: 2157, pad: 2148, bos: 2149 },
  speakers: { ryan: { codecId: 3061, dialect: null }, aiden: { codecId: 2861, dialect: null } },
  languages: { english: 2050, chinese: 2055 },
};
const BASE: PromptFacts = { ...FACTS, ttsModelType: 'base', speakers: {}, talkerHiddenSize: 4, numCodeGroups: 2, codebookSize: 16 };

const prefixOf = (p: Prompt) => p.rows.slice(0, p.numPrefixRows);

describe('prompt prefix', () => {
  let tokenizer: TextTokenizer;
  const build = (facts: PromptFacts, input: Partial<PromptInput> & { text: string }) =>
    buildPrompt(facts, tokenizer, { voice: 'ryan', language: 'english', layout: 'non-streaming', ...input });
  beforeAll(() => {
    tokenizer = loadBundledQwen2Tokenizer();
  });

  it('ends after tts_bos in the non-streaming layout, whatever the text', () => {
    const a = build(FACTS, { text: 'synthesis' });
    const b = build(FACTS, { text: 'A much longer sentence to speak.' });
    // <|im_start|> assistant \n, think, think_bos, english, think_eos, speaker, tts_bos: 9 rows
    expect([a.numPrefixRows, b.numPrefixRows]).toEqual([9, 9]);
    expect(prefixOf(a)).toEqual(prefixOf(b));
    expect(a.rows[8]).toEqual({ textId: 151672, codecId: 2148 });
    expect(a.rows[9]).not.toEqual(b.rows[9]); // the first spoken-text row
  });

  it('changes with the voice, the language and the instruction, and grows by the instruction rows', () => {
    const base = prefixOf(build(FACTS, { text: 'synthesis' }));
    expect(prefixOf(build(FACTS, { text: 'synthesis', voice: 'aiden' }))).not.toEqual(base);
    expect(prefixOf(build(FACTS, { text: 'synthesis', language: 'chinese' }))).not.toEqual(base);
    const calm = build(FACTS, { text: 'synthesis', instruct: 'Speak calmly.' });
    const fast = build(FACTS, { text: 'other words', instruct: 'Speak fast.' });
    expect(calm.numPrefixRows).toBeGreaterThan(9);
    expect(calm.rows.slice(calm.numPrefixRows - 9, calm.numPrefixRows)).toEqual(base); // the instruction comes first
    expect(prefixOf(calm)).not.toEqual(prefixOf(fast));
    expect(prefixOf(build(FACTS, { text: 'other words', instruct: 'Speak calmly.' }))).toEqual(prefixOf(calm));
  });

  it(`keeps ${MIN_PROMPT_SUFFIX_ROWS} rows after the prefix in the streaming-text layout (tts_bos joins the one text row)`, () => {
    const p = build(FACTS, { text: 'synthesis', layout: 'streaming-text' });
    // 9 rows up to tts_bos, then (first text token, codec_bos): 10 rows, prefix 10 − 2 = 8
    expect(p.rows).toHaveLength(10);
    expect(p.numPrefixRows).toBe(8);
    expect(prefixOf(p)).toEqual(prefixOf(build(FACTS, { text: 'Something else entirely.', layout: 'streaming-text' })));
  });

  it('takes in the reference transcript rows of a Base in-context prompt, and the reference frames beside them when streaming', () => {
    const speakerEmbedding = Float32Array.of(0.1, 0.2, 0.3, 0.4);
    const refCodes = Array.from({ length: 20 }, (_, t) => [t % 16, (t * 3) % 16]);
    const refText = 'What the reference says.';
    const refIds = tokenizer.encode(`assistant\n${refText}`).length - tokenizer.encode('assistant\n').length;
    const input = { voice: '', speakerEmbedding, refCodes, refText };
    // x-vector mode: <|im_start|> assistant \n, the think block (4), the x-vector, tts_bos: 9 rows
    expect(build(BASE, { ...input, refCodes: undefined, refText: undefined, text: 'synthesis' }).numPrefixRows).toBe(9);
    const flat = build(BASE, { ...input, text: 'synthesis' });
    expect(flat.numPrefixRows).toBe(9 + refIds);
    expect(flat.rows[8 + refIds].textId).not.toBe(flat.rows[9 + refIds].textId);
    const side = build(BASE, { ...input, text: 'synthesis', layout: 'streaming-text' });
    expect(side.numPrefixRows).toBe(9 + refIds); // 21 codec rows > refIds text rows
    expect(side.rows[9].codecId).toBe(BASE.codecTokens.bos);
    expect(side.rows[10].codecFrame).toEqual(refCodes[0]);
    // other codes: the same prefix non-streaming (the codes come after the text), another one side by side
    const otherCodes = refCodes.map((f) => [(f[0] + 1) % 16, f[1]]);
    expect(prefixOf(build(BASE, { ...input, refCodes: otherCodes, text: 'synthesis' }))).toEqual(prefixOf(flat));
    expect(prefixOf(build(BASE, { ...input, refCodes: otherCodes, text: 'synthesis', layout: 'streaming-text' }))).not.toEqual(prefixOf(side));
  });

  it('caps a streaming in-context prefix whose transcript covers every codec row', () => {
    const p = build(BASE, { voice: '', speakerEmbedding: Float32Array.of(1, 2, 3, 4), refCodes: [[1, 2]], refText: 'A long transcript for a single frame.', text: 'synthesis', layout: 'streaming-text' });
    // 9 rows, then codec_bos and one frame beside transcript tokens: 11 rows, the rest of the text trails
    expect(p.rows).toHaveLength(11);
    expect(p.numPrefixRows).toBe(11 - MIN_PROMPT_SUFFIX_ROWS);
  });
});
