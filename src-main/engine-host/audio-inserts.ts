/**
 * Loads the files of SSML <audio src> elements for the engine host, as capabilities: a src resolves
 * only to a regular file inside one of the allowed roots (realpath containment, so no `..` or
 * symlink escape), is size-capped while it is read, and is read asynchronously (never blocking the
 * host's event loop). Anything refused gets one generic warning that does not tell whether the
 * path exists; the specific reason goes to the host log only. A readable WAV is then bounded by its
 * decoded size (each time it is inserted, insert-decode.ts), the request's samples admitted and the
 * file decoded by the caller's InsertDecoding (insert-service.ts: a global budget, a cache, worker
 * threads); a file over that bound, at a rate that cannot be resampled or with non-finite samples
 * fails the request with a clear error instead.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readWavLayout, type WavLayout } from '../audio/wav-read';
import type { SsmlSegment } from '../ssml/segments';
import type { InsertBudgetLimits } from './insert-budget';
import { AUDIO_INSERT_MAX_DECODED_SAMPLES, decodeInsertAtRate, decodedSizeOf, type DecodedInsert } from './insert-decode';

export type { DecodedInsert };

/** Largest <audio> file read: 50 MiB (about 18 minutes of 16-bit mono at 24 kHz). */
export const AUDIO_INSERT_MAX_BYTES = 50 * 1024 * 1024;

export interface AudioInsertPolicy extends InsertBudgetLimits {
  /** Absolute folders a src may resolve into (relative srcs are tried against each, in order). */
  roots: readonly string[];
  /** Size cap per file and for all <audio> files of one request together. */
  maxBytes: number;
  /** Samples all <audio> files of one request may decode to, at outputSampleRateHz, each counted each time it is inserted (insert-decode.ts). */
  maxDecodedSamples: number;
  /** The rate inserts are resampled to: the model's codec rate. */
  outputSampleRateHz: number;
  /** Decoded PCM kept by content hash for later requests (insert-cache.ts), in bytes. */
  cacheMaxBytes: number;
  /** Worker threads that decode, resample and join inserts (insert-workers.ts). */
  numWorkers: number;
}

/**
 * The host's policy: files from `roots` up to AUDIO_INSERT_MAX_BYTES, one request decoding to at most
 * AUDIO_INSERT_MAX_DECODED_SAMPLES (10 min at 24 kHz), all requests together to twice that (about
 * 115 MB of float32 PCM, plus the same again while a join runs), each client at most four waiting
 * for room; 256 MiB of decoded clips cached; two worker threads, or one where two cores or fewer are
 * left beside the engine's own threads and the host's loop.
 */
export function defaultAudioInsertPolicy(roots: readonly string[], outputSampleRateHz: number): AudioInsertPolicy {
  return {
    roots,
    maxBytes: AUDIO_INSERT_MAX_BYTES,
    maxDecodedSamples: AUDIO_INSERT_MAX_DECODED_SAMPLES,
    outputSampleRateHz,
    maxSamplesInFlight: 2 * AUDIO_INSERT_MAX_DECODED_SAMPLES,
    maxWaitMs: 20_000,
    maxWaitingPerClient: 4,
    maxWaiting: 32,
    retryAfterS: 2,
    cacheMaxBytes: 256 * 1024 * 1024,
    numWorkers: Math.max(1, Math.min(2, os.availableParallelism() - 2)),
  };
}

export interface LoadedInserts {
  /** Decoded PCM per src string, as the segments name it, at the output rate (read only: it may be cached). */
  audio: Map<string, DecodedInsert>;
  warnings: string[];
}

/** A request's loaded inserts, holding its admitted samples until release(). */
export interface AdmittedInserts extends LoadedInserts {
  /** Samples of every <audio> of the request at the output rate, each insert counted each time. */
  numDecodedSamples: number;
  release(): void;
}

/** How the caller admits a request's decoded samples and decodes one accepted file to the output rate. */
export interface InsertDecoding {
  admit(numDecodedSamples: number): Promise<() => void>;
  decode(src: string, bytes: Uint8Array, layout: WavLayout, outputSampleRateHz: number): Promise<DecodedInsert>;
}

/** On the calling thread, without a budget: for tests and tools. The engine host uses insert-service.ts. */
export const IN_THREAD_DECODING: InsertDecoding = {
  admit: async () => () => {},
  decode: async (src, bytes, layout, rateHz) => decodeInsertAtRate(src, bytes, layout, rateHz),
};

/** A refusal: `reason` is for the host log only; clients see refusalWarning(). */
export class AudioInsertRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'AudioInsertRefused';
  }
}

/** Longest src quoted back in a warning (an attribute may be up to the SSML size limit). */
const MAX_SRC_SHOWN = 200;

/** The one warning a client sees for any refused src; the same text whatever the cause. */
export function refusalWarning(src: string, policy: Pick<AudioInsertPolicy, 'maxBytes'>): string {
  const mib = Math.floor(policy.maxBytes / (1024 * 1024));
  const shown = src.length > MAX_SRC_SHOWN ? `${src.slice(0, MAX_SRC_SHOWN)}…` : src;
  return `<audio src="${shown}"> was not inserted: only WAV files of at most ${mib} MiB inside the studio's clips or imports folders can be inserted, so it was left out`;
}

const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/** The lexical candidates for a src: a file: URL or absolute path as is, a relative path against each root. */
function candidatesFor(src: string, roots: readonly string[]): string[] {
  const trimmed = src.trim();
  if (trimmed === '' || trimmed.includes('\0')) throw new AudioInsertRefused('empty src or NUL byte');
  if (/^file:/i.test(trimmed)) {
    let file: string;
    try {
      file = fileURLToPath(trimmed); // rejects remote hosts and encoded separators
    } catch (err) {
      throw new AudioInsertRefused(`not a local file: URL (${(err as Error).message})`);
    }
    return [path.resolve(file)];
  }
  if (path.isAbsolute(trimmed)) return [path.resolve(trimmed)];
  return roots.map((root) => path.resolve(root, trimmed));
}

/**
 * Reads one allowed file. Order matters: the lexical containment check runs before the file system
 * is touched (so /dev/zero or a FIFO outside the roots is never even stat'ed), the realpath check
 * before the file is opened, and the opened descriptor is checked again (regular file, same inode,
 * size under the cap) before a byte is read; reading stops at the cap.
 */
export async function readAudioInsert(src: string, roots: readonly string[], maxBytes: number): Promise<Uint8Array> {
  const lexicalRoots = roots.map((r) => path.resolve(r));
  // A root may itself sit behind a symlink (macOS /var → /private/var): a src may name either form.
  const realRoots = (await Promise.all(lexicalRoots.map((r) => fs.promises.realpath(r).catch(() => null)))).filter((r): r is string => r !== null);
  const anyRoot = [...lexicalRoots, ...realRoots];
  const candidates = candidatesFor(src, lexicalRoots).filter((c) => anyRoot.some((r) => isInside(r, c)));
  if (candidates.length === 0) throw new AudioInsertRefused('outside every allowed root');
  let lastReason = 'no such file';
  for (const candidate of candidates) {
    let real: string;
    try {
      real = await fs.promises.realpath(candidate);
    } catch (err) {
      lastReason = (err as NodeJS.ErrnoException).code ?? 'realpath failed';
      continue;
    }
    if (!realRoots.some((r) => isInside(r, real))) {
      lastReason = 'resolves outside every allowed root (symlink)';
      continue;
    }
    const stat = await fs.promises.lstat(real);
    if (!stat.isFile()) throw new AudioInsertRefused('not a regular file');
    if (stat.size > maxBytes) throw new AudioInsertRefused(`${stat.size} bytes, over the ${maxBytes}-byte cap`);
    return readRegularFile(real, stat, maxBytes);
  }
  throw new AudioInsertRefused(lastReason);
}

async function readRegularFile(file: string, expected: fs.Stats, maxBytes: number): Promise<Uint8Array> {
  // O_NONBLOCK: were the path swapped for a FIFO after lstat, open() returns at once instead of blocking.
  const handle = await fs.promises.open(file, fs.constants.O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.ino !== expected.ino || stat.dev !== expected.dev) throw new AudioInsertRefused('the file changed between checks');
    if (stat.size > maxBytes) throw new AudioInsertRefused(`${stat.size} bytes, over the ${maxBytes}-byte cap`);
    // One byte more than the cap tells a file that grew past it from one that ends there.
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let numRead = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, numRead, buffer.length - numRead, numRead);
      if (bytesRead === 0) break;
      numRead += bytesRead;
      if (numRead > maxBytes) throw new AudioInsertRefused(`grew past the ${maxBytes}-byte cap while being read`);
      if (numRead === buffer.length) throw new AudioInsertRefused('grew while being read');
    }
    return new Uint8Array(buffer.buffer, buffer.byteOffset, numRead);
  } finally {
    await handle.close();
  }
}

/**
 * Loads every distinct <audio src> of a plan's segments. A refused file or one that is not a WAV is
 * left out with refusalWarning(); the bytes of all files together are capped at policy.maxBytes and
 * their decoded samples (each counted as often as it is inserted) at policy.maxDecodedSamples. Then
 * the samples are admitted (`decoding.admit`, which may wait or refuse 'busy') and the files decoded.
 * Rejects with the request's StudioError for a WAV over the decoded bound, at an unusable rate, or
 * with non-finite samples (its admitted samples given back).
 */
export async function loadAudioInserts(segments: readonly SsmlSegment[] | null, policy: AudioInsertPolicy, log: (m: string) => void = () => {}, decoding: InsertDecoding = IN_THREAD_DECODING): Promise<AdmittedInserts> {
  const numUses = new Map<string, number>();
  for (const s of segments ?? []) if (s.kind === 'audio') numUses.set(s.src, (numUses.get(s.src) ?? 0) + 1);
  const files = new Map<string, { bytes: Uint8Array; layout: WavLayout }>();
  const warnings: string[] = [];
  let numBytesLeft = policy.maxBytes;
  let numSamplesLeft = policy.maxDecodedSamples;
  for (const [src, uses] of numUses) {
    let bytes: Uint8Array;
    let layout: WavLayout;
    try {
      bytes = await readAudioInsert(src, policy.roots, numBytesLeft);
      layout = readWavLayout(bytes);
    } catch (err) {
      log(`<audio src=${JSON.stringify(src)}> refused: ${err instanceof AudioInsertRefused ? err.reason : (err as Error).message}`);
      warnings.push(refusalWarning(src, policy));
      continue;
    }
    numBytesLeft -= bytes.length;
    numSamplesLeft -= decodedSizeOf(src, layout, { outputSampleRateHz: policy.outputSampleRateHz, numSamplesLeft, maxDecodedSamples: policy.maxDecodedSamples, numUses: uses });
    files.set(src, { bytes, layout });
  }
  const numDecodedSamples = policy.maxDecodedSamples - numSamplesLeft;
  const release = await decoding.admit(numDecodedSamples);
  try {
    const decoded = await Promise.all([...files].map(async ([src, { bytes, layout }]) => [src, await decoding.decode(src, bytes, layout, policy.outputSampleRateHz)] as const));
    return { audio: new Map(decoded), warnings, numDecodedSamples, release };
  } catch (err) {
    release();
    throw err;
  }
}
