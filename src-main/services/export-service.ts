/**
 * The export service: gathers an export's PCM chunk by chunk (each fits one WebSocket message),
 * optionally normalises its loudness (the user's target and ceiling), then encodes it with encode-audio.ts, the encoders behind the HTTP API's response_format.
 * An export is keyed by its caller and id, so no client can add to or take another's; memory is
 * bounded (samples per export, open exports per caller) and abandoned exports expire.
 */
import { StudioError } from '../../src-shared/errors';
import { fileExtensionFor } from '../../src-shared/audio-format';
import type { ExportEncodeRequest, ExportedAudio } from '../../src-shared/contract/export';
import { encodeAudio } from '../audio/encode-audio';
import { normalizeLoudness } from '../audio/normalize-loudness';

export interface ExportLimits {
  /** Samples one export may gather: 2^25 ≈ 23 min at 24 kHz, 128 MiB of float PCM. */
  maxSamplesPerExport: number;
  maxOpenExportsPerCaller: number;
  /** Samples held across every caller's open exports: 2^27, 512 MiB. */
  maxTotalSamples: number;
  /** An export that gets no call for this long is dropped. */
  idleExpiryMs: number;
}

export function defaultExportLimits(): ExportLimits {
  return { maxSamplesPerExport: 2 ** 25, maxOpenExportsPerCaller: 2, maxTotalSamples: 2 ** 27, idleExpiryMs: 10 * 60_000 };
}

interface OpenExport {
  callerId: string;
  chunks: Float32Array[];
  numSamples: number;
  lastTouchedMs: number;
}

export class ExportService {
  private readonly open = new Map<string, OpenExport>();

  constructor(
    private readonly limits: ExportLimits = defaultExportLimits(),
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** Adds a chunk (copied) to the caller's export `exportId`, starting it on the first chunk. */
  append(callerId: string, exportId: string, pcm: Float32Array): { numSamples: number } {
    this.expireIdle();
    const key = keyOf(callerId, exportId);
    let entry = this.open.get(key);
    if (!entry) {
      const numOpen = [...this.open.values()].filter((e) => e.callerId === callerId).length;
      if (numOpen >= this.limits.maxOpenExportsPerCaller) {
        throw new StudioError('busy', `this client already has ${numOpen} unfinished exports (the limit is ${this.limits.maxOpenExportsPerCaller}); finish them with studio:export.encodeAudio or wait ${Math.round(this.limits.idleExpiryMs / 60_000)} min for them to expire`, { numOpen, limit: this.limits.maxOpenExportsPerCaller });
      }
      entry = { callerId, chunks: [], numSamples: 0, lastTouchedMs: this.nowMs() };
      this.open.set(key, entry);
    }
    const numHeld = [...this.open.values()].reduce((n, e) => n + e.numSamples, 0);
    if (numHeld + pcm.length > this.limits.maxTotalSamples) {
      if (entry.numSamples === 0) this.open.delete(key); // not started after all
      throw new StudioError('busy', `exports in progress hold ${numHeld} samples and the limit is ${this.limits.maxTotalSamples}; retry when they finish`, { numHeld, limit: this.limits.maxTotalSamples });
    }
    if (entry.numSamples + pcm.length > this.limits.maxSamplesPerExport) {
      this.open.delete(key);
      throw new StudioError('input-too-long', `export ${exportId} would hold ${entry.numSamples + pcm.length} samples but one export takes at most ${this.limits.maxSamplesPerExport}; export a shorter range`, { numSamples: entry.numSamples + pcm.length, max: this.limits.maxSamplesPerExport });
    }
    entry.chunks.push(pcm.slice());
    entry.numSamples += pcm.length;
    entry.lastTouchedMs = this.nowMs();
    return { numSamples: entry.numSamples };
  }

  /** Encodes the caller's export and forgets it, whether the encode succeeds or not. */
  async encode(callerId: string, request: ExportEncodeRequest): Promise<ExportedAudio> {
    this.expireIdle();
    const key = keyOf(callerId, request.exportId);
    const entry = this.open.get(key);
    if (!entry) {
      throw new StudioError('not-found', `no export '${request.exportId}' from this client (it was never started, already encoded, or expired after ${Math.round(this.limits.idleExpiryMs / 60_000)} min); send its audio with studio:export.appendAudio first`, { field: 'exportId', value: request.exportId });
    }
    this.open.delete(key);
    const pcm = new Float32Array(entry.numSamples);
    let at = 0;
    for (const chunk of entry.chunks) {
      pcm.set(chunk, at);
      at += chunk.length;
    }
    entry.chunks = [];
    const out = request.loudness ? normalizeLoudness(pcm, request.sampleRateHz, request.loudness).pcm : pcm;
    const encoded = await encodeAudio({ pcm: out, sampleRateHz: request.sampleRateHz, format: request.format, ...(request.bitrateKbps !== undefined ? { bitrateKbps: request.bitrateKbps } : {}) });
    return { ...encoded, fileExtension: fileExtensionFor(request.format) };
  }

  /** Exports still open (for tests and status). */
  get numOpen(): number {
    return this.open.size;
  }

  private expireIdle(): void {
    const now = this.nowMs();
    for (const [key, entry] of this.open) {
      if (now - entry.lastTouchedMs > this.limits.idleExpiryMs) this.open.delete(key);
    }
  }
}

function keyOf(callerId: string, exportId: string): string {
  return `${callerId}\u0000${exportId}`;
}
