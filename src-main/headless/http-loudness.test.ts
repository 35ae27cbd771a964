// The HTTP API's loudness extension: {"loudness": {"target_lufs", "true_peak_ceiling_dbtp"}} on both
// synthesis routes becomes the request's loudness (a field left out takes the default); values
// outside the normaliser's ranges are refused naming the field and the range.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OUTPUT_LOUDNESS } from '../../src-shared/audio-format';
import { synthesisRequestSchema } from '../api/schemas';
import { speechBodySchema, speechToRequest, ttsBodySchema, ttsToRequest } from './synthesis-bodies';

describe('loudness over HTTP', () => {
  it('passes the target and ceiling into the request on both routes', () => {
    const speech = speechBodySchema.parse({ input: 'hello', voice: 'ryan', loudness: { target_lufs: -23, true_peak_ceiling_dbtp: -2 } });
    expect(speechToRequest(speech, 'ryan').loudness).toEqual({ targetLufs: -23, truePeakCeilingDbtp: -2 });
    const tts = ttsBodySchema.parse({ text: 'hello', voice: 'ryan', loudness: { target_lufs: -30 } });
    expect(ttsToRequest(tts, 'ryan').loudness).toEqual({ targetLufs: -30, truePeakCeilingDbtp: DEFAULT_OUTPUT_LOUDNESS.truePeakCeilingDbtp });
    expect(speechToRequest(speechBodySchema.parse({ input: 'hello', voice: 'ryan' }), 'ryan').loudness).toBeUndefined();
  });

  it('refuses out-of-range, mistyped and unknown loudness fields with the field and range', () => {
    const tooLoud = speechBodySchema.safeParse({ input: 'x', voice: 'ryan', loudness: { target_lufs: 0 } });
    expect(tooLoud.success).toBe(false);
    expect(tooLoud.error?.issues[0]).toMatchObject({ path: ['loudness', 'target_lufs'], message: 'loudness.target_lufs must be from -70 to -5 LUFS' });
    const ceiling = ttsBodySchema.safeParse({ text: 'x', voice: 'ryan', loudness: { true_peak_ceiling_dbtp: 1 } });
    expect(ceiling.error?.issues[0].message).toBe('loudness.true_peak_ceiling_dbtp must be from -9 to 0 dBTP');
    const typed = ttsBodySchema.safeParse({ text: 'x', voice: 'ryan', loudness: { target_lufs: '-16' } });
    expect(typed.error?.issues[0].message).toBe('loudness.target_lufs must be a number of LUFS');
    expect(ttsBodySchema.safeParse({ text: 'x', voice: 'ryan', loudness: { lufs: -16 } }).success).toBe(false);
  });

  it('checks the contract field the UI sends the same way', () => {
    const base = { requestId: 'r', input: 'x', inputFormat: 'text', voice: 'ryan', language: 'auto', seed: 1 };
    expect(synthesisRequestSchema.safeParse({ ...base, loudness: { targetLufs: -23, truePeakCeilingDbtp: -1 } }).success).toBe(true);
    const low = synthesisRequestSchema.safeParse({ ...base, loudness: { targetLufs: -80, truePeakCeilingDbtp: -1 } });
    expect(low.error?.issues[0].message).toBe('loudness.targetLufs must be at least -70 LUFS');
    expect(synthesisRequestSchema.safeParse({ ...base, loudness: { targetLufs: -23 } }).success).toBe(false);
  });
});
