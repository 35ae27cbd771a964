/**
 * Streaming playback with Web Audio: plays a request's audio chunks as they arrive, turn by turn
 * in order, each chunk scheduled right after the previous one. Streamed chunks come before the
 * clip's loudness normalisation, so with a loudness target every chunk plays through one gain
 * node set from the gain predicted on the audio so far (stream-gain.ts): the first chunk's
 * estimate at once, later estimates ramped (time constant 0.2 s). When the final, normalised clip
 * arrives while it is still playing and has the streamed length (plain text: the final is the
 * stream times one gain), playback crossfades (30 ms) into the final audio at the same sample.
 * Store-agnostic; a no-op where the page has no AudioContext (tests, some headless browsers).
 */
import type { OutputLoudness } from '../../src-shared/audio-format';
import { StreamGainPredictor } from './stream-gain';

export interface StreamChunk {
  turnIndex: number;
  startSample: number;
  sampleRateHz: number;
  pcm: Float32Array;
}

const GAIN_RAMP_TIME_CONSTANT_S = 0.2;
const CROSSFADE_S = 0.03;

/** Where one scheduled chunk sits: in the context's time and in the stream's samples. */
interface Scheduled {
  source: AudioBufferSourceNode;
  atS: number;
  durationS: number;
  streamOffset: number;
}

export class StreamPlayer {
  private readonly ctx: AudioContext | null;
  private readonly gain: GainNode | null;
  private predictor: StreamGainPredictor | null = null;
  private scheduled: Scheduled[] = [];
  private numStreamed = 0;
  private endS = 0;
  private readonly pending = new Map<number, StreamChunk[]>();
  private readonly finishedTurns = new Set<number>();
  private currentTurn = 0;
  private nextSample = 0;
  private playAtS = 0;
  private sources: AudioBufferSourceNode[] = [];
  private disposed = false;
  numChunksPlayed = 0;
  /** The gain live playback uses now (dB), null before an estimate or without a target. */
  liveGainDb: number | null = null;
  /** Whether playback switched to the final clip's audio. */
  replacedByFinal = false;

  constructor(private readonly loudness: OutputLoudness | null = null) {
    const Ctor = typeof window !== 'undefined' ? (window.AudioContext ?? null) : null;
    this.ctx = Ctor ? new Ctor() : null;
    this.gain = this.ctx ? this.ctx.createGain() : null;
    if (this.ctx && this.gain) this.gain.connect(this.ctx.destination);
  }

  /**
   * The final clip is here: when playback is still running and the final has the streamed length,
   * crossfade into it at the current sample; otherwise the rest plays on as streamed.
   */
  replaceWithFinal(pcm: Float32Array, sampleRateHz: number): boolean {
    if (!this.ctx || !this.gain || this.disposed || this.replacedByFinal) return false;
    if (pcm.length !== this.numStreamed || this.scheduled.length === 0) return false;
    const atS = this.ctx.currentTime + 0.05;
    const playing = this.scheduled.find((c) => atS >= c.atS && atS < c.atS + c.durationS);
    const later = this.scheduled.filter((c) => c.atS > atS);
    const first = playing ?? later[0];
    if (!first) return false; // playback already ended
    const startS = Math.max(atS, first.atS);
    const offset = Math.min(pcm.length, first.streamOffset + Math.max(0, Math.round((startS - first.atS) * sampleRateHz)));
    if (offset >= pcm.length) return false;
    const buffer = this.ctx.createBuffer(1, pcm.length - offset, sampleRateHz);
    buffer.copyToChannel(pcm.slice(offset), 0);
    const fade = this.ctx.createGain();
    fade.gain.setValueAtTime(0, startS);
    fade.gain.linearRampToValueAtTime(1, startS + CROSSFADE_S);
    fade.connect(this.ctx.destination);
    const source = this.ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(fade);
    source.start(startS);
    this.gain.gain.cancelScheduledValues(startS);
    this.gain.gain.setValueAtTime(this.gain.gain.value, startS);
    this.gain.gain.linearRampToValueAtTime(0, startS + CROSSFADE_S);
    for (const c of this.scheduled) {
      try {
        c.source.stop(startS + CROSSFADE_S);
      } catch {
        // already stopped
      }
    }
    this.sources.push(source);
    this.endS = startS + buffer.duration;
    this.replacedByFinal = true;
    return true;
  }

  push(chunk: StreamChunk): void {
    if (this.disposed) return;
    const list = this.pending.get(chunk.turnIndex) ?? [];
    list.push(chunk);
    this.pending.set(chunk.turnIndex, list);
    this.drain();
  }

  /** The turn has produced all its audio; playback moves on to the next turn. */
  finishTurn(turnIndex: number): void {
    this.finishedTurns.add(turnIndex);
    this.drain();
  }

  /** Seconds until everything scheduled has played (0 without audio output). */
  remainingS(): number {
    return this.ctx ? Math.max(0, this.endS - this.ctx.currentTime) : 0;
  }

  dispose(): void {
    this.disposed = true;
    for (const s of this.sources) {
      try {
        s.stop();
      } catch {
        // already stopped
      }
    }
    this.sources = [];
    void this.ctx?.close().catch(() => {});
  }

  private drain(): void {
    for (;;) {
      const list = this.pending.get(this.currentTurn) ?? [];
      const i = list.findIndex((c) => c.startSample === this.nextSample);
      if (i >= 0) {
        const [chunk] = list.splice(i, 1);
        this.play(chunk);
        this.nextSample += chunk.pcm.length;
        continue;
      }
      if (this.finishedTurns.has(this.currentTurn)) {
        this.currentTurn++;
        this.nextSample = 0;
        continue;
      }
      return;
    }
  }

  private play(chunk: StreamChunk): void {
    this.numChunksPlayed++;
    const streamOffset = this.numStreamed;
    this.numStreamed += chunk.pcm.length;
    if (this.loudness && chunk.pcm.length > 0) {
      this.predictor ??= new StreamGainPredictor(this.loudness, chunk.sampleRateHz);
      const first = this.predictor.gainDb === null;
      const next = this.predictor.add(chunk.pcm);
      if (next !== null) {
        this.liveGainDb = next;
        this.setGain(next, first);
      }
    }
    if (!this.ctx || !this.gain || chunk.pcm.length === 0 || this.replacedByFinal) return;
    const buffer = this.ctx.createBuffer(1, chunk.pcm.length, chunk.sampleRateHz);
    buffer.copyToChannel(new Float32Array(chunk.pcm), 0);
    const source = this.ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(this.gain);
    this.playAtS = Math.max(this.playAtS, this.ctx.currentTime + 0.05);
    source.start(this.playAtS);
    this.scheduled.push({ source, atS: this.playAtS, durationS: buffer.duration, streamOffset });
    this.playAtS += buffer.duration;
    this.endS = this.playAtS;
    this.sources.push(source);
  }

  /** The first estimate applies at once (nothing has played yet); later ones glide there. */
  private setGain(gainDb: number, immediately: boolean): void {
    if (!this.ctx || !this.gain) return;
    const linear = 10 ** (gainDb / 20);
    if (immediately) this.gain.gain.setValueAtTime(linear, this.ctx.currentTime);
    else this.gain.gain.setTargetAtTime(linear, this.ctx.currentTime, GAIN_RAMP_TIME_CONSTANT_S);
  }
}
