// @vitest-environment jsdom
/**
 * Streamed playback through a fake Web Audio context: with a loudness target the first chunk sets
 * the gain at once (before anything sounds), later estimates glide; without a target nothing is
 * scaled; the final clip replaces the rest of the stream at the sample playing then (30 ms
 * crossfade), only when it has the streamed length and playback has not ended.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StreamPlayer } from './stream-player';

const RATE = 24000;

class FakeParam {
  events: { kind: string; value: number; atS: number }[] = [];
  value = 1;
  setValueAtTime(value: number, atS: number) {
    this.events.push({ kind: 'set', value, atS });
    this.value = value;
  }
  setTargetAtTime(value: number, atS: number) {
    this.events.push({ kind: 'target', value, atS });
  }
  linearRampToValueAtTime(value: number, atS: number) {
    this.events.push({ kind: 'ramp', value, atS });
  }
  cancelScheduledValues() {}
}

class FakeNode {
  gain = new FakeParam();
  connect() {}
}

class FakeSource extends FakeNode {
  buffer: { duration: number; data: Float32Array } | null = null;
  startedAtS: number | null = null;
  stoppedAtS: number | null = null;
  start(atS: number) {
    this.startedAtS = atS;
  }
  stop(atS: number) {
    this.stoppedAtS = atS;
  }
}

class FakeContext {
  static last: FakeContext;
  currentTime = 0;
  destination = {};
  gains: FakeNode[] = [];
  sources: FakeSource[] = [];
  constructor() {
    FakeContext.last = this;
  }
  createGain() {
    const g = new FakeNode();
    this.gains.push(g);
    return g;
  }
  createBuffer(_channels: number, length: number, rate: number) {
    const data = new Float32Array(length);
    return { duration: length / rate, data, copyToChannel: (src: Float32Array) => data.set(src) };
  }
  createBufferSource() {
    const s = new FakeSource();
    this.sources.push(s);
    return s;
  }
  close() {
    return Promise.resolve();
  }
}

function tone(numSamples: number, amplitude: number, offset = 0): Float32Array {
  return Float32Array.from({ length: numSamples }, (_, i) => amplitude * Math.sin((2 * Math.PI * 200 * (offset + i)) / RATE));
}

describe('StreamPlayer', () => {
  const original = window.AudioContext;
  beforeEach(() => {
    (window as unknown as { AudioContext: unknown }).AudioContext = FakeContext;
  });
  afterEach(() => {
    (window as unknown as { AudioContext: unknown }).AudioContext = original;
  });

  it('sets the predicted gain before the first chunk sounds and glides later estimates', () => {
    const player = new StreamPlayer({ targetLufs: -16, truePeakCeilingDbtp: -1 });
    const master = FakeContext.last.gains[0];
    player.push({ turnIndex: 0, startSample: 0, sampleRateHz: RATE, pcm: tone(2400, 0.02) });
    expect(master.gain.events[0]).toMatchObject({ kind: 'set', atS: 0 });
    expect(player.liveGainDb).toBeGreaterThan(10); // a quiet stream is raised
    expect(FakeContext.last.sources[0].startedAtS).toBeGreaterThan(0); // scheduled after the gain is set
    for (let at = 2400; at < RATE * 2; at += 2400) player.push({ turnIndex: 0, startSample: at, sampleRateHz: RATE, pcm: tone(2400, 0.02, at) });
    expect(master.gain.events.slice(1).every((e) => e.kind === 'target')).toBe(true);
  });

  it('leaves the stream as it is without a target', () => {
    const player = new StreamPlayer(null);
    player.push({ turnIndex: 0, startSample: 0, sampleRateHz: RATE, pcm: tone(2400, 0.02) });
    expect(FakeContext.last.gains[0].gain.events).toEqual([]);
    expect(player.liveGainDb).toBeNull();
  });

  it('crossfades into the final clip at the sample playing, only when lengths match and it still plays', () => {
    const player = new StreamPlayer({ targetLufs: -16, truePeakCeilingDbtp: -1 });
    const ctx = FakeContext.last;
    for (let at = 0; at < RATE; at += 4800) player.push({ turnIndex: 0, startSample: at, sampleRateHz: RATE, pcm: tone(4800, 0.02, at) });
    expect(player.replaceWithFinal(new Float32Array(RATE - 1), RATE)).toBe(false); // another length: plays on
    ctx.currentTime = 0.5; // 0.55 s of the stream has been scheduled to play by then (started at 0.05)
    const final = tone(RATE, 0.3);
    expect(player.replaceWithFinal(final, RATE)).toBe(true);
    const replacement = ctx.sources.at(-1)!;
    expect(replacement.startedAtS).toBeCloseTo(0.55, 6);
    // From the sample at 0.55 s − 0.05 s start = 0.5 s of stream: 12000 samples in.
    expect(replacement.buffer!.data.length).toBe(RATE - 12000);
    expect(replacement.buffer!.data[0]).toBeCloseTo(final[12000], 6);
    expect(ctx.sources.slice(0, -1).every((s) => s.stoppedAtS !== null && Math.abs(s.stoppedAtS - 0.58) < 1e-6)).toBe(true);
    expect(player.replacedByFinal).toBe(true);
    expect(player.remainingS()).toBeCloseTo(0.55 + 0.5 - 0.5, 6);
    expect(player.replaceWithFinal(final, RATE)).toBe(false); // once
  });

  it('does not replace a stream that has finished playing', () => {
    const player = new StreamPlayer({ targetLufs: -16, truePeakCeilingDbtp: -1 });
    player.push({ turnIndex: 0, startSample: 0, sampleRateHz: RATE, pcm: tone(2400, 0.02) });
    FakeContext.last.currentTime = 5;
    expect(player.replaceWithFinal(tone(2400, 0.3), RATE)).toBe(false);
  });
});
