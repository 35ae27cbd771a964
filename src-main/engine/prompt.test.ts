// Prompt rows against hand-built expectations (spec §2.2–§2.4), with the ids of the official
// 0.6B CustomVoice config.json, plus the voice / language / instruct rules and bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import { buildPrompt, decodeTextId, listLanguages, type PromptFacts } from './prompt';
import { loadBundledQwen2Tokenizer, type TextTokenizer } from './tokenizer';

const FACTS: PromptFacts = {
  ttsModelType: 'custom_voice',
  ttsModelSize: '0b6',
  textTokens: { imStart: 151644, imEnd: 151645, ttsPad: 151671, ttsBos: 151672, ttsEos: 151673 },
  codecTokens: { eos: 2150, think: 2154, nothink: 2155, thinkBos: 2156, thinkEos: 2157, pad: 2148, bos: 2149 },
  speakers: {
    ryan: { codecId: 3061, dialect: null },
    dylan: { codecId: 2878, dialect: 'beijing_dialect' },
    eric: { codecId: 2875, dialect: 'sichuan_dialect' },
  },
  languages: { english: 2050, chinese: 2055, beijing_dialect: 2074, sichuan_dialect: 2062 },
};

const PAD = 151671;
const row = (textId: number | null, codecId: number | null) => ({ textId, codecId });

describe('prompt', () => {
  let tokenizer: TextTokenizer;
  beforeAll(() => {
    tokenizer = loadBundledQwen2Tokenizer();
  });

  it('builds the N + 11 non-streaming rows with a language', () => {
    const prompt = buildPrompt(FACTS, tokenizer, { text: 'synthesis', voice: 'ryan', language: 'english', layout: 'non-streaming' });
    expect(prompt.rows).toEqual([
      row(151644, null), row(77091, null), row(198, null), // <|im_start|> assistant \n
      row(PAD, 2154), row(PAD, 2156), row(PAD, 2050), row(PAD, 2157), // think, think_bos, english, think_eos
      row(PAD, 3061), // speaker ryan
      row(151672, 2148), // tts_bos + codec_pad
      row(20339, 2148), row(13189, 2148), // "synth" "esis" + codec_pad
      row(151673, 2148), // tts_eos + codec_pad
      row(PAD, 2149), // tts_pad + codec_bos
    ]);
    // N = 2 text tokens → 2 + 11 = 13 rows
    expect(prompt.rows).toHaveLength(prompt.numTextTokens + 11);
    expect(prompt.trailingTextIds).toEqual([]);
    expect(decodeTextId(prompt, 0)).toBe(PAD);
  });

  it('builds N + 10 rows with the nothink block for auto', () => {
    const prompt = buildPrompt(FACTS, tokenizer, { text: 'synthesis', voice: 'ryan', language: 'auto', layout: 'non-streaming' });
    expect(prompt.rows.slice(3, 7)).toEqual([row(PAD, 2155), row(PAD, 2156), row(PAD, 2157), row(PAD, 3061)]);
    expect(prompt.rows).toHaveLength(prompt.numTextTokens + 10);
    expect(prompt.languageId).toBeNull();
  });

  it('switches Dylan and Eric to their dialect for chinese and auto, not for english', () => {
    const lang = (voice: string, language: string) =>
      buildPrompt(FACTS, tokenizer, { text: '你好', voice, language, layout: 'non-streaming' }).languageId;
    expect(lang('dylan', 'chinese')).toBe(2074);
    expect(lang('dylan', 'auto')).toBe(2074);
    expect(lang('eric', 'chinese')).toBe(2062);
    expect(lang('eric', 'english')).toBe(2050);
    expect(lang('ryan', 'chinese')).toBe(2055);
  });

  it('puts the first text token in the prefill and the rest on the decode track in streaming-text layout', () => {
    const prompt = buildPrompt(FACTS, tokenizer, { text: 'synthesis', voice: 'ryan', language: 'english', layout: 'streaming-text' });
    // 3 role + 5 think/speaker + tts_bos + (t0 + codec_bos) = n + 3 = 10
    expect(prompt.rows).toHaveLength(10);
    expect(prompt.rows[9]).toEqual(row(20339, 2149));
    expect(prompt.trailingTextIds).toEqual([13189, 151673]);
    expect([0, 1, 2, 3].map((k) => decodeTextId(prompt, k))).toEqual([13189, 151673, PAD, PAD]);
  });

  it('trims surrounding whitespace before tokenizing', () => {
    const a = buildPrompt(FACTS, tokenizer, { text: '  \n synthesis \n', voice: 'ryan', language: 'english', layout: 'non-streaming' });
    expect(a.numTextTokens).toBe(2);
  });

  it('ignores instruct on the 0.6B model with a warning', () => {
    const prompt = buildPrompt(FACTS, tokenizer, { text: 'hi', voice: 'ryan', language: 'english', instruct: 'whisper', layout: 'non-streaming' });
    expect(prompt.rows[0]).toEqual(row(151644, null));
    expect(prompt.warnings.join(' ')).toMatch(/instruct ignored/);
  });

  it('prepends the user-turn instruct rows on a 1.7B CustomVoice model', () => {
    const facts = { ...FACTS, ttsModelSize: '1b7' };
    const prompt = buildPrompt(facts, tokenizer, { text: 'hi', voice: 'ryan', language: 'english', instruct: 'calm', layout: 'non-streaming' });
    const instructIds = [151644, ...tokenizer.encode('user\ncalm'), 151645, 198];
    expect(prompt.rows.slice(0, instructIds.length)).toEqual(instructIds.map((id) => row(id, null)));
    expect(prompt.rows[instructIds.length]).toEqual(row(151644, null));
    expect(prompt.warnings).toEqual([]);
  });

  it('omits the speaker row for VoiceDesign', () => {
    const facts = { ...FACTS, ttsModelType: 'voice_design', ttsModelSize: '1b7' };
    const prompt = buildPrompt(facts, tokenizer, { text: 'hi', voice: '', language: 'auto', instruct: 'a calm voice', layout: 'non-streaming' });
    const numInstruct = prompt.rows.findIndex((r, i) => i > 0 && r.textId === 151644);
    // without instruct: N + 10 - 1 (no speaker) rows
    expect(prompt.rows.length - numInstruct).toBe(prompt.numTextTokens + 9);
  });

  it('builds the VoiceDesign rows exactly: description turn, then the CustomVoice rows without a speaker', () => {
    const facts = { ...FACTS, ttsModelType: 'voice_design', ttsModelSize: '1b7', speakers: {} };
    const prompt = buildPrompt(facts, tokenizer, { text: 'synthesis', voice: '', language: 'english', instruct: 'a deep voice', layout: 'non-streaming' });
    const description = [151644, ...tokenizer.encode('user\na deep voice'), 151645, 198]; // <|im_start|>user\n…<|im_end|>\n
    expect(prompt.rows).toEqual([
      ...description.map((id) => row(id, null)),
      row(151644, null), row(77091, null), row(198, null), // <|im_start|> assistant \n
      row(PAD, 2154), row(PAD, 2156), row(PAD, 2050), row(PAD, 2157), // think, think_bos, english, think_eos (no speaker row)
      row(151672, 2148), // tts_bos + codec_pad
      row(20339, 2148), row(13189, 2148), // "synth" "esis" + codec_pad
      row(151673, 2148), // tts_eos + codec_pad
      row(PAD, 2149), // tts_pad + codec_bos
    ]);
    expect(prompt.warnings).toEqual([]);
  });

  it('treats an empty VoiceDesign description as no instruction (as generate_voice_design does) and ignores a voice with a warning', () => {
    const facts = { ...FACTS, ttsModelType: 'voice_design', ttsModelSize: '1b7', speakers: {} };
    const prompt = buildPrompt(facts, tokenizer, { text: 'synthesis', voice: 'ryan', language: 'auto', instruct: '', layout: 'streaming-text' });
    expect(prompt.rows[0]).toEqual(row(151644, null));
    // 3 role + nothink/think_bos/think_eos + tts_bos/pad + first text token over codec_bos = 8 rows
    expect(prompt.rows).toHaveLength(8);
    expect(prompt.rows[7]).toEqual(row(20339, 2149));
    expect(prompt.trailingTextIds).toEqual([13189, 151673]);
    expect(prompt.warnings.join(' ')).toMatch(/voice 'ryan' ignored/);
  });

  it('puts a Base x-vector on the codec track in the speaker row (tts_pad over it), and requires one', () => {
    const facts = { ...FACTS, ttsModelType: 'base', speakers: {}, talkerHiddenSize: 4 };
    const xVector = Float32Array.from([0.5, -1, 2, 0]);
    const prompt = buildPrompt(facts, tokenizer, { text: 'synthesis', voice: '', language: 'english', speakerEmbedding: xVector, layout: 'non-streaming' });
    expect(prompt.rows).toEqual([
      row(151644, null), row(77091, null), row(198, null),
      row(PAD, 2154), row(PAD, 2156), row(PAD, 2050), row(PAD, 2157),
      { textId: PAD, codecId: null, codecVector: xVector }, // speaker_embed in place of a spk_id row
      row(151672, 2148),
      row(20339, 2148), row(13189, 2148),
      row(151673, 2148),
      row(PAD, 2149),
    ]);
    expect(() => buildPrompt(facts, tokenizer, { text: 'hi', voice: '', language: 'english', layout: 'non-streaming' })).toThrow(/pass the speakerEmbedding/);
    expect(() => buildPrompt(facts, tokenizer, { text: 'hi', voice: '', language: 'english', speakerEmbedding: new Float32Array(3), layout: 'non-streaming' })).toThrow(/has 3 values/);
    expect(() => buildPrompt(FACTS, tokenizer, { text: 'hi', voice: 'ryan', language: 'english', speakerEmbedding: xVector, layout: 'non-streaming' })).toThrow(/needs a Base checkpoint/);
  });

  describe('Base in-context mode (generate_icl_prompt)', () => {
    const facts = { ...FACTS, ttsModelType: 'base', speakers: {}, talkerHiddenSize: 4, numCodeGroups: 3, codebookSize: 2048 };
    const xVector = Float32Array.from([0.5, -1, 2, 0]);
    const frames = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12], [13, 14, 15], [16, 17, 18]];
    const prefix = [
      row(151644, null), row(77091, null), row(198, null),
      row(PAD, 2154), row(PAD, 2156), row(PAD, 2050), row(PAD, 2157),
      { textId: PAD, codecId: null, codecVector: xVector },
      row(151672, 2148),
    ];
    const frameRow = (textId: number, i: number) => ({ textId, codecId: null, codecFrame: frames[i] });
    // reference text 'synthesis' + spoken text 'synthesis' + tts_eos: 20339 13189 20339 13189 151673
    const icl = (numFrames: number, layout: 'non-streaming' | 'streaming-text') =>
      buildPrompt(facts, tokenizer, { text: 'synthesis', voice: '', language: 'english', speakerEmbedding: xVector, refCodes: frames.slice(0, numFrames), refText: ' synthesis ', layout });

    it('lays text beside codec_bos + reference frames and moves the overflow to the decode track (streaming text, the official default)', () => {
      const prompt = icl(2, 'streaming-text');
      // 5 text rows > 3 codec rows: the first 3 text ids ride on codec_bos and the 2 frames
      expect(prompt.rows).toEqual([...prefix, row(20339, 2149), frameRow(13189, 0), frameRow(20339, 1)]);
      expect(prompt.trailingTextIds).toEqual([13189, 151673]);
      expect(prompt.numTextTokens).toBe(2); // the spoken text only: the frame budget ignores the reference
    });

    it('pads the text with tts_pad when the reference has more frames than text', () => {
      const prompt = icl(6, 'streaming-text');
      expect(prompt.rows.slice(prefix.length)).toEqual([
        row(20339, 2149), frameRow(13189, 0), frameRow(20339, 1), frameRow(13189, 2), frameRow(151673, 3), frameRow(PAD, 4), frameRow(PAD, 5),
      ]);
      expect(prompt.trailingTextIds).toEqual([]);
      expect(decodeTextId(prompt, 0)).toBe(PAD);
    });

    it('puts all text over codec_pad, then codec_bos and the frames over tts_pad (non-streaming)', () => {
      const prompt = icl(2, 'non-streaming');
      expect(prompt.rows).toEqual([
        ...prefix,
        row(20339, 2148), row(13189, 2148), row(20339, 2148), row(13189, 2148), row(151673, 2148),
        row(PAD, 2149), frameRow(PAD, 0), frameRow(PAD, 1),
      ]);
      expect(prompt.trailingTextIds).toEqual([]);
    });

    it('refuses half a reference, malformed codes and references on other model types, naming the field', () => {
      const base = { text: 'hi', voice: '', language: 'english', speakerEmbedding: xVector, layout: 'non-streaming' as const };
      expect(() => buildPrompt(facts, tokenizer, { ...base, refCodes: frames })).toThrow(/without refText/);
      expect(() => buildPrompt(facts, tokenizer, { ...base, refCodes: frames, refText: '  ' })).toThrow(/without refText/);
      expect(() => buildPrompt(facts, tokenizer, { ...base, refText: 'hello' })).toThrow(/without refCodes/);
      expect(() => buildPrompt(facts, tokenizer, { ...base, refCodes: [], refText: 'hello' })).toThrow(/without refCodes/);
      expect(() => buildPrompt(facts, tokenizer, { ...base, refCodes: [[1, 2]], refText: 'hello' })).toThrow(/frame 0 has 2 codes but this model takes 3/);
      expect(() => buildPrompt(facts, tokenizer, { ...base, refCodes: [[1, 2, 3], [1, 2048, 3]], refText: 'hello' })).toThrow(/frame 1 holds 2048/);
      expect(() => buildPrompt(facts, tokenizer, { ...base, refCodes: [[1, 2.5, 3]], refText: 'hello' })).toThrow(/frame 0 holds 2.5/);
      expect(() => buildPrompt(FACTS, tokenizer, { text: 'hi', voice: 'ryan', language: 'english', refCodes: frames, refText: 'hello', layout: 'non-streaming' })).toThrow(/need a Base checkpoint/);
      try {
        buildPrompt(facts, tokenizer, { ...base, refCodes: frames });
      } catch (err) {
        expect((err as StudioError).details.field).toBe('refText');
      }
    });
  });

  it('lists auto plus the non-dialect languages', () => {
    expect(listLanguages(FACTS)).toEqual(['auto', 'english', 'chinese']);
  });

  it('rejects empty text, unknown voice and unknown language naming the field and valid values', () => {
    const expectError = (input: Partial<Parameters<typeof buildPrompt>[2]>, field: string, pattern: RegExp) => {
      const full = { text: 'hi', voice: 'ryan', language: 'english', layout: 'non-streaming' as const, ...input };
      try {
        buildPrompt(FACTS, tokenizer, full);
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(StudioError);
        expect((err as StudioError).code).toBe('invalid-argument');
        expect((err as StudioError).details.field).toBe(field);
        expect((err as StudioError).message).toMatch(pattern);
      }
    };
    expectError({ text: '   \n\t' }, 'input', /empty or only whitespace/);
    expectError({ voice: 'bob' }, 'voice', /unknown voice 'bob'; valid voices: ryan, dylan, eric/);
    expectError({ language: 'klingon' }, 'language', /valid languages: auto, english, chinese/);
    expectError({ language: 'beijing_dialect' }, 'language', /unknown language/);
  });
});
