/**
 * Downloads one hub file into `<dest>.part`, resuming with a Range request when a partial file
 * exists (the partial is re-hashed first so the sha256 covers every byte), then checks size and
 * checksum and renames it into place. A bad file is moved to quarantine; a dropped connection
 * leaves the partial file for the next attempt. Knows nothing about other files or manifests.
 */
import { createHash, type Hash } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import { hashFileInto } from './file-hash';
import type { HubClient, HubFile } from './hub-client';

export interface FileDownloadRequest {
  client: HubClient;
  repo: string;
  commitSha: string;
  file: HubFile;
  destPath: string;
  quarantineDir: string;
  stallTimeoutMs: number;
  signal?: AbortSignal;
  /** Called as bytes land on disk: bytes of this file now on disk, its size, bytes found in the partial. */
  onBytes?: (receivedBytes: number, totalBytes: number, resumedFromBytes: number) => void;
  /** Called before the partial file is re-hashed, so progress can say so. */
  onVerifying?: () => void;
}

export interface FileDownloadResult {
  sha256: string;
  sizeBytes: number;
  resumedFromBytes: number;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

export async function downloadHubFile(req: FileDownloadRequest): Promise<FileDownloadResult> {
  const { file, destPath } = req;
  const partPath = `${destPath}.part`;
  await mkdir(path.dirname(destPath), { recursive: true });

  let startBytes = await sizeOrZero(partPath);
  if (startBytes > file.sizeBytes) {
    await rm(partPath, { force: true });
    startBytes = 0;
  }
  const hashes = newHashes(file.sizeBytes);
  if (startBytes > 0) {
    req.onVerifying?.();
    await hashFileInto(hashes.sha256, partPath);
    await hashFileInto(hashes.gitSha1, partPath);
  }
  const resumedFromBytes = startBytes;
  req.onBytes?.(startBytes, file.sizeBytes, resumedFromBytes);

  let expectedSha256 = file.lfsSha256;
  let receivedBytes = startBytes;
  if (startBytes < file.sizeBytes) {
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    let stallTimer: NodeJS.Timeout | undefined;
    const armStallTimer = () => {
      clearTimeout(stallTimer);
      stallTimer = setTimeout(() => controller.abort(), req.stallTimeoutMs);
    };
    const what = `downloading ${req.repo}/${file.path}`;
    try {
      armStallTimer();
      const res = await req.client.openFile(req.repo, req.commitSha, file.path, startBytes, controller.signal);
      if (res.commitSha !== null && res.commitSha !== req.commitSha) {
        await res.body.cancel();
        throw new StudioError('network', `${what}: the hub served commit ${res.commitSha} but ${req.commitSha} was pinned; pull again`, { commitSha: res.commitSha });
      }
      if (expectedSha256 === null && res.etag !== null && SHA256_HEX.test(res.etag)) expectedSha256 = res.etag;
      if (res.startBytes === 0 && startBytes > 0) {
        // The server ignored the Range: start the file over.
        Object.assign(hashes, newHashes(file.sizeBytes));
        receivedBytes = 0;
      }
      const handle = await open(partPath, receivedBytes === 0 ? 'w' : 'a');
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          armStallTimer();
          if (receivedBytes + chunk.length > file.sizeBytes) {
            throw new StudioError('checksum-mismatch', `${what}: the server sent more than the ${file.sizeBytes} bytes the hub listed`, { sizeBytes: file.sizeBytes });
          }
          await handle.write(chunk);
          hashes.sha256.update(chunk);
          hashes.gitSha1.update(chunk);
          receivedBytes += chunk.length;
          req.onBytes?.(receivedBytes, file.sizeBytes, resumedFromBytes);
        }
      } finally {
        await handle.close();
      }
    } catch (err) {
      if (req.signal?.aborted) throw new StudioError('cancelled', `${what}: cancelled; the partial file ${partPath} is kept`);
      const stalled = controller.signal.aborted;
      if (err instanceof StudioError && !stalled && !(err.code === 'network' && receivedBytes > startBytes)) throw err;
      const cause = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
      throw new StudioError(
        'network',
        `${what}: ${stalled ? `no data for ${req.stallTimeoutMs} ms` : 'the connection dropped'} at ${receivedBytes} of ${file.sizeBytes} bytes; the partial file ${partPath} is kept, pull again to resume from it`,
        { path: file.path, receivedBytes, sizeBytes: file.sizeBytes, cause },
      );
    } finally {
      clearTimeout(stallTimer);
      req.signal?.removeEventListener('abort', onAbort);
    }
  }

  if (receivedBytes !== file.sizeBytes) {
    throw new StudioError('network', `downloading ${req.repo}/${file.path}: the connection ended at ${receivedBytes} of ${file.sizeBytes} bytes; pull again to resume from ${partPath}`, { path: file.path, receivedBytes, sizeBytes: file.sizeBytes });
  }
  const sha256 = hashes.sha256.digest('hex');
  const gitSha1 = hashes.gitSha1.digest('hex');
  const expected = expectedSha256 ?? file.gitOid;
  const actual = expectedSha256 !== null ? sha256 : gitSha1;
  if (expected !== null && actual !== expected) {
    const quarantinedTo = await quarantineFile(partPath, req.quarantineDir, file.path);
    throw new StudioError(
      'checksum-mismatch',
      `${req.repo}/${file.path}: ${expectedSha256 !== null ? 'sha256' : 'git blob sha1'} is ${actual.slice(0, 12)}… but the hub lists ${expected.slice(0, 12)}…; the bad file was moved to ${quarantinedTo}; pull again to re-download it`,
      { path: file.path, expected, actual, quarantinedTo },
    );
  }
  await rename(partPath, destPath);
  return { sha256, sizeBytes: file.sizeBytes, resumedFromBytes };
}

/** Moves a bad file out of the model folder so it is never loaded; returns where it went. */
export async function quarantineFile(filePath: string, quarantineDir: string, relativePath: string): Promise<string> {
  await mkdir(quarantineDir, { recursive: true });
  const target = path.join(quarantineDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${relativePath.replace(/[\\/]/g, '__')}`);
  await rename(filePath, target);
  return target;
}

function newHashes(sizeBytes: number): { sha256: Hash; gitSha1: Hash } {
  return { sha256: createHash('sha256'), gitSha1: createHash('sha1').update(`blob ${sizeBytes}\0`) };
}

async function sizeOrZero(filePath: string): Promise<number> {
  try {
    return (await stat(filePath)).size;
  } catch {
    return 0;
  }
}
