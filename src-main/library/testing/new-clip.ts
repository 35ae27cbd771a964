/**
 * Test-only: a library clip's metadata as the studio saves it (text, ryan, seed 42, the checkpoint's
 * sampling defaults, timings of a 1 s clip), with any field replaced. One fixture for every library test.
 */
import type { NewClip } from '../../../src-shared/contract/library';

export function newClip(over: Partial<NewClip> = {}): NewClip {
  return {
    title: 'Greeting',
    input: 'Hello there, 50% off today',
    inputFormat: 'text',
    voice: 'ryan',
    language: 'english',
    seed: 42,
    instruct: null,
    params: { doSample: true, temperature: 0.9, topK: 50, topP: 1, repetitionPenalty: 1.05, subtalkerDoSample: true, subtalkerTemperature: 0.9, subtalkerTopK: 50, subtalkerTopP: 1, maxNewTokens: 2048 },
    modelHash: 'abc123',
    timings: { numPromptTokens: 10, numFrames: 12, queueWaitMs: 1, latencyFirstAudioMs: 5, latencyTotalMs: 20, audioDurationMs: 1000, rtf: 0.02 },
    sampleRateHz: 24_000,
    turnSpans: [{ turnIndex: 0, startSample: 0, endSample: 4 }],
    ...over,
  };
}
