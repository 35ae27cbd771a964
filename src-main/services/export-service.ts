/**
 * The export service: gathers an export's PCM chunk by chunk (each fits one WebSocket message),
 * optionally normalises its loudness (the user's target and ceiling), then encodes it with encode-audio.ts, the encoders behind the HTTP API's response_format.
 * An export belongs to the connection (caller) that started it and dies with it; memory is bounded
 * per export, per client (all its connections together), for remote clients together (the rest is
 * kept for this machine's own session) and in all; abandoned exports expire.
 */
import { StudioError } from '../../src-shared/errors';
import { fileExtensionFor } from '../../src-shared/audio-format';
import type { ExportEncodeRequest, ExportedAudio } from '../../src-shared/contract/export';
import { encodeAudio } from '../audio/encode-audio';
import { normalizeLoudness } from '../audio/normalize-loudness';

export interface ExportLimits {
  /** Samples one export may gather: 2^25 ≈ 23 min at 24 kHz, 128 MiB of float PCM. */
  maxSamplesPerExport: number;
  /** Unfinished exports one client may have, over all its connections. */
  maxOpenExportsPerClient: number;
  /** Samples one client may hold over all its connections: 2^25, one full-length export (a quarter of the pool). */
  maxSamplesPerClient: number;
  /** Samples remote clients together may hold: 3 · 2^25, so 2^25 stays for this machine's own session (the Timeline export). */
  maxRemoteSamples: number;
  /** Samples held across every caller's open exports: 2^27, 512 MiB. */
  maxTotalSamples: number;
  /** An export that gets no call for this long is dropped. */
  idleExpiryMs: number;
}

export function defaultExportLimits(): ExportLimits {
  return { maxSamplesPerExport: 2 ** 25, maxOpenExportsPerClient: 2, maxSamplesPerClient: 2 ** 25, maxRemoteSamples: 3 * 2 ** 25, maxTotalSamples: 2 ** 27, idleExpiryMs: 10 * 60_000 };
}

/** Who appends: the connection that owns the export, the client it belongs to (quotas count by it), and whether it is remote. */
export interface ExportOwner {
  callerId: string;
  clientId: string;
  remote: boolean;
}

/** The owner a call context stands for: its connection, its client, remote unless it is the local admin session. */
export function exportOwnerOf(ctx: { callerId: string; clientId?: string; role: 'admin' | 'client' }): ExportOwner {
  return { callerId: ctx.callerId, clientId: ctx.clientId ?? ctx.callerId, remote: ctx.role !== 'admin' };
}

/** A bare caller id is its own client, on this machine. */
const ownerOf = (owner: ExportOwner | string): ExportOwner => (typeof owner === 'string' ? { callerId: owner, clientId: owner, remote: false } : owner);

/** Seconds a client refused for a full pool should wait (429 Retry-After). */
const RETRY_AFTER_S = 5;

interface OpenExport extends ExportOwner {
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
  append(ownerOrCallerId: ExportOwner | string, exportId: string, pcm: Float32Array): { numSamples: number } {
    this.expireIdle();
    const owner = ownerOf(ownerOrCallerId);
    const key = keyOf(owner.callerId, exportId);
    let entry = this.open.get(key);
    if (!entry) {
      const numOpen = this.entries((e) => e.clientId === owner.clientId).length;
      if (numOpen >= this.limits.maxOpenExportsPerClient) {
        throw new StudioError('busy', `this client already has ${numOpen} unfinished exports (the limit is ${this.limits.maxOpenExportsPerClient}, over all its connections); finish them with studio:export.encodeAudio or close the connection that started them`, { numOpen, limit: this.limits.maxOpenExportsPerClient, retryAfterS: RETRY_AFTER_S });
      }
      entry = { ...owner, chunks: [], numSamples: 0, lastTouchedMs: this.nowMs() };
      this.open.set(key, entry);
    }
    if (entry.numSamples + pcm.length > this.limits.maxSamplesPerExport) {
      this.open.delete(key);
      throw new StudioError('input-too-long', `export ${exportId} would hold ${entry.numSamples + pcm.length} samples but one export takes at most ${this.limits.maxSamplesPerExport}; export a shorter range`, { numSamples: entry.numSamples + pcm.length, max: this.limits.maxSamplesPerExport });
    }
    try {
      this.checkShares(owner, pcm.length);
    } catch (err) {
      if (entry.numSamples === 0) this.open.delete(key); // not started after all
      throw err;
    }
    entry.chunks.push(pcm.slice());
    entry.numSamples += pcm.length;
    entry.lastTouchedMs = this.nowMs();
    return { numSamples: entry.numSamples };
  }

  /** Encodes the caller's export and forgets it, whether the encode succeeds or not. */
  async encode(ownerOrCallerId: ExportOwner | string, request: ExportEncodeRequest): Promise<ExportedAudio> {
    this.expireIdle();
    const key = keyOf(ownerOf(ownerOrCallerId).callerId, request.exportId);
    const entry = this.open.get(key);
    if (!entry) {
      throw new StudioError('not-found', `no export '${request.exportId}' from this connection (it was never started, already encoded, or expired after ${Math.round(this.limits.idleExpiryMs / 60_000)} min); send its audio with studio:export.appendAudio first`, { field: 'exportId', value: request.exportId });
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

  /** The connection went away: its unfinished exports go with it. Returns how many. */
  dropCaller(callerId: string): number {
    const mine = [...this.open].filter(([, e]) => e.callerId === callerId);
    for (const [key] of mine) this.open.delete(key);
    return mine.length;
  }

  /** Exports still open (for tests and status). */
  get numOpen(): number {
    return this.open.size;
  }

  /** Refuses `numSamples` more for `owner` past its client's share, the remote clients' share or the pool. */
  private checkShares(owner: ExportOwner, numSamples: number): void {
    const held = (where: (e: OpenExport) => boolean) => this.entries(where).reduce((n, e) => n + e.numSamples, 0);
    const numClient = held((e) => e.clientId === owner.clientId);
    if (numClient + numSamples > this.limits.maxSamplesPerClient) {
      throw new StudioError('busy', `this client's unfinished exports hold ${numClient} samples and one client may hold ${this.limits.maxSamplesPerClient} (over all its connections); encode or abandon one, then retry`, { numHeld: numClient, limit: this.limits.maxSamplesPerClient, retryAfterS: RETRY_AFTER_S });
    }
    const numRemote = owner.remote ? held((e) => e.remote) : 0;
    if (owner.remote && numRemote + numSamples > this.limits.maxRemoteSamples) {
      throw new StudioError('busy', `remote clients' exports hold ${numRemote} samples and together may hold ${this.limits.maxRemoteSamples}; retry when they finish`, { numHeld: numRemote, limit: this.limits.maxRemoteSamples, retryAfterS: RETRY_AFTER_S });
    }
    const numHeld = held(() => true);
    if (numHeld + numSamples > this.limits.maxTotalSamples) {
      throw new StudioError('busy', `exports in progress hold ${numHeld} samples and the limit is ${this.limits.maxTotalSamples}; retry when they finish`, { numHeld, limit: this.limits.maxTotalSamples, retryAfterS: RETRY_AFTER_S });
    }
  }

  private entries(where: (e: OpenExport) => boolean): OpenExport[] {
    return [...this.open.values()].filter(where);
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
