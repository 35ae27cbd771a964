/**
 * Test doubles for the engine loop: a pure-TypeScript "model" with the stage contracts of
 * stages/stages.ts, a character-level tokenizer and a small manifest. Each row's outputs depend on
 * that row's inputs only, and EOS becomes likely after ~20 frames, so loops end. Unit tests only.
 */
import type { ModelManifest } from '../../model-format/manifest';
import type { CodePredictorStage, CodecStage, EmbeddingLookup, ModelStages, TalkerInput, TalkerOutput, TalkerStage } from '../stages/stages';
import { sampleCodePredictorToken } from '../sampling/sampler';
import type { TextTokenizer } from '../tokenizer';

const HIDDEN = 8;
const TALKER_VOCAB = 40; // 0..19 audio codes, 20..39 control ids, EOS 25
const CP_VOCAB = 20;
const NUM_GROUPS = 4;

function wave(seed: number, out: Float32Array, offset: number): void {
  for (let k = 0; k < HIDDEN; k++) out[offset + k] += Math.fround(Math.sin(seed * 0.37 + k * 1.3));
}

export function fakeManifest(): ModelManifest {
  return {
    ttsModelType: 'custom_voice',
    ttsModelSize: '0b6',
    numCodeGroups: NUM_GROUPS,
    checkpointHash: 'fake',
    textTokens: { imStart: 100, imEnd: 101, ttsPad: 102, ttsBos: 103, ttsEos: 104 },
    codecTokens: { eos: 25, think: 30, nothink: 31, thinkBos: 32, thinkEos: 33, pad: 34, bos: 35 },
    speakers: { ryan: { codecId: 36, dialect: null }, dylan: { codecId: 37, dialect: 'beijing_dialect' } },
    languages: { english: 38, beijing_dialect: 39 },
    generation: {
      doSample: true, temperature: 0.9, topK: 50, topP: 1, repetitionPenalty: 1.05,
      subtalkerDoSample: true, subtalkerTemperature: 0.9, subtalkerTopK: 50, subtalkerTopP: 1, maxNewTokens: 8192, minNewTokens: 2,
    },
    talker: { vocabSize: TALKER_VOCAB, hiddenSize: HIDDEN, maxPositionEmbeddings: 32768 },
    codePredictor: { vocabSize: CP_VOCAB },
  } as unknown as ModelManifest;
}

export function fakeTokenizer(): TextTokenizer {
  return {
    source: 'fake',
    encode: (text) => [...text].map((ch) => ch.codePointAt(0)! % 90),
    decode: (ids) => ids.map((id) => String.fromCodePoint(id)).join(''),
  };
}

class FakeTalker implements TalkerStage {
  readonly hiddenSize = HIDDEN;
  readonly states = new Map<number, { sum: Float64Array; numPositions: number }>();
  readonly batchSizes: number[] = [];

  private run(inputs: readonly TalkerInput[]): TalkerOutput[] {
    this.batchSizes.push(inputs.length);
    return inputs.map((input) => {
      const state = this.states.get(input.sequenceId) ?? { sum: new Float64Array(HIDDEN), numPositions: 0 };
      for (let r = 0; r < input.numRows; r++) for (let k = 0; k < HIDDEN; k++) state.sum[k] += input.embeds[r * HIDDEN + k] * (1 + 0.01 * (state.numPositions + r));
      state.numPositions += input.numRows;
      this.states.set(input.sequenceId, state);
      const hidden = Float32Array.from(state.sum, (v) => Math.tanh(v));
      const logits = new Float32Array(TALKER_VOCAB);
      for (let v = 0; v < TALKER_VOCAB; v++) logits[v] = 2 * Math.sin(hidden.reduce((acc, h, k) => acc + h * (v + 1) * (k + 1), 0));
      logits[25] = -4 + 0.25 * state.numPositions - 0.25 * 20; // EOS likely after ~20 frames past the prompt
      return { logits, hidden };
    });
  }

  async prefill(inputs: readonly TalkerInput[]) {
    return this.run(inputs);
  }
  async decode(inputs: readonly TalkerInput[]) {
    return this.run(inputs);
  }
  release(sequenceId: number) {
    this.states.delete(sequenceId);
  }
  async dispose() {}
}

const fakeCodePredictor: CodePredictorStage = {
  async predict(rows) {
    return rows.map((row) => {
      const codes: number[] = [];
      let prev = row.c0;
      for (let codebook = 1; codebook < NUM_GROUPS; codebook++) {
        const logits = new Float32Array(CP_VOCAB);
        for (let v = 0; v < CP_VOCAB; v++) logits[v] = Math.sin(row.hidden[v % HIDDEN] * 3 + prev * 0.7 + v * codebook);
        prev = sampleCodePredictorToken(logits, row.warpers, row.uniforms[codebook - 1]);
        codes.push(prev);
      }
      return codes;
    });
  },
  async dispose() {},
};

/** PCM sample s of frame t depends on frames t and t-1 only (a one-frame receptive field). */
export const FAKE_SAMPLES_PER_FRAME = 4;
const fakeCodec: CodecStage = {
  sampleRateHz: 24000,
  samplesPerFrame: FAKE_SAMPLES_PER_FRAME,
  async decode(codes) {
    const pcm = new Float32Array(codes.length * FAKE_SAMPLES_PER_FRAME);
    codes.forEach((frame, t) => {
      const previous = t > 0 ? codes[t - 1] : null;
      for (let s = 0; s < FAKE_SAMPLES_PER_FRAME; s++) {
        const base = frame.reduce((acc, c, q) => acc + c * (q + 1), 0) + (previous ? previous[0] : 0);
        pcm[t * FAKE_SAMPLES_PER_FRAME + s] = Math.sin(base + s) * 0.5;
      }
    });
    return pcm;
  },
  async decodeBatch(windows) {
    return Promise.all(windows.map((w) => fakeCodec.decode(w)));
  },
  async dispose() {},
};

const fakeEmbeddings: EmbeddingLookup = {
  hiddenSize: HIDDEN,
  addText: (id, out, offset) => wave(id, out, offset),
  addCodec: (id, out, offset) => wave(1000 + id, out, offset),
  addCodePredictorCodec: (table, code, out, offset) => wave(2000 + table * 100 + code, out, offset),
};

export function fakeStages(): ModelStages & { talker: FakeTalker } {
  return { talker: new FakeTalker(), codePredictor: fakeCodePredictor, codec: fakeCodec, embeddings: fakeEmbeddings, numCodeGroups: NUM_GROUPS };
}
