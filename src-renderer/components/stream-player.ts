/**
 * Streaming playback with Web Audio: plays a request's audio chunks as they arrive, turn by turn
 * in order, each chunk scheduled right after the previous one. Store-agnostic; a no-op where the
 * page has no AudioContext (tests, some headless browsers).
 */

export interface StreamChunk {
  turnIndex: number;
  startSample: number;
  sampleRateHz: number;
  pcm: Float32Array;
}

export class StreamPlayer {
  private readonly ctx: AudioContext | null;
  private readonly pending = new Map<number, StreamChunk[]>();
  private readonly finishedTurns = new Set<number>();
  private currentTurn = 0;
  private nextSample = 0;
  private playAtS = 0;
  private sources: AudioBufferSourceNode[] = [];
  private disposed = false;
  numChunksPlayed = 0;

  constructor() {
    const Ctor = typeof window !== 'undefined' ? (window.AudioContext ?? null) : null;
    this.ctx = Ctor ? new Ctor() : null;
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
    if (!this.ctx || chunk.pcm.length === 0) return;
    const buffer = this.ctx.createBuffer(1, chunk.pcm.length, chunk.sampleRateHz);
    buffer.copyToChannel(new Float32Array(chunk.pcm), 0);
    const source = this.ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(this.ctx.destination);
    this.playAtS = Math.max(this.playAtS, this.ctx.currentTime + 0.05);
    source.start(this.playAtS);
    this.playAtS += buffer.duration;
    this.sources.push(source);
  }
}
