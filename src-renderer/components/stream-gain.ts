/**
 * Predicts the loudness-normalisation gain of a clip while it streams: the final clip gets one
 * gain to the target (BS.1770 integrated) under the true-peak ceiling, which needs the whole clip,
 * so live playback uses the same meters (src-main/audio, pure) on the audio received so far.
 * Re-estimated every 0.5 s of new audio up to the first 10 s (bounded work; later speech rarely
 * moves an integrated measure far), always capped by the true peak seen so far plus a margin.
 */
import type { OutputLoudness } from '../../src-shared/audio-format';
import { measureIntegratedLoudness } from '../../src-main/audio/loudness';
import { measureTruePeak } from '../../src-main/audio/true-peak';

/** Headroom kept below the ceiling for peaks that later audio may bring. */
export const STREAM_PEAK_MARGIN_DB = 1;
/** No estimate moves playback further than this either way (a near-silent first chunk). */
export const MAX_STREAM_GAIN_DB = 24;
const REESTIMATE_EVERY_S = 0.5;
const ESTIMATE_WINDOW_S = 10;

export class StreamGainPredictor {
  private received = new Float32Array(0);
  private numReceived = 0;
  private numAtLastEstimate = 0;
  private peak = 0;
  private current: number | null = null;

  constructor(
    private readonly target: OutputLoudness,
    private readonly sampleRateHz: number,
  ) {}

  /** Adds streamed samples; returns the new gain estimate in dB when it changed, else null. */
  add(pcm: Float32Array): number | null {
    const window = Math.round(ESTIMATE_WINDOW_S * this.sampleRateHz);
    const take = Math.min(pcm.length, Math.max(0, window - this.numReceived));
    if (take > 0) {
      if (this.numReceived + take > this.received.length) {
        const grown = new Float32Array(Math.min(window, Math.max(this.received.length * 2, this.numReceived + take)));
        grown.set(this.received.subarray(0, this.numReceived));
        this.received = grown;
      }
      this.received.set(pcm.subarray(0, take), this.numReceived);
      this.numReceived += take;
    }
    const chunkPeak = measureTruePeak(pcm, this.sampleRateHz);
    const peakRose = chunkPeak > this.peak;
    this.peak = Math.max(this.peak, chunkPeak);
    const due = this.current === null || (take > 0 && this.numReceived - this.numAtLastEstimate >= REESTIMATE_EVERY_S * this.sampleRateHz);
    if (!due && !peakRose) return null;
    const next = this.estimate(due);
    if (next === null || next === this.current) return null;
    this.current = next;
    return next;
  }

  /** The gain in use (dB), or null before any audible audio. */
  get gainDb(): number | null {
    return this.current;
  }

  private estimate(remeasure: boolean): number | null {
    let loudnessGainDb = this.current;
    if (remeasure) {
      const measured = measureIntegratedLoudness(this.received.subarray(0, this.numReceived), this.sampleRateHz);
      if (Number.isFinite(measured)) loudnessGainDb = this.target.targetLufs - measured;
      this.numAtLastEstimate = this.numReceived;
    }
    if (loudnessGainDb === null) return null;
    let gainDb = Math.max(-MAX_STREAM_GAIN_DB, Math.min(MAX_STREAM_GAIN_DB, loudnessGainDb));
    if (this.peak > 0) gainDb = Math.min(gainDb, this.target.truePeakCeilingDbtp - STREAM_PEAK_MARGIN_DB - 20 * Math.log10(this.peak));
    return Math.round(gainDb * 100) / 100;
  }
}
