/**
 * Streamed file hashing: sha256 of a whole file, and feeding an existing file into a running
 * hash so a resumed download can continue hashing where the partial file ends.
 * Also the git blob sha1 the hub reports as the oid of small (non-LFS) files.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** Feeds the file's bytes into `hash` and returns the number of bytes read. */
export async function hashFileInto(hash: Hash, filePath: string, onBytes?: (numBytes: number) => void): Promise<number> {
  let numBytes = 0;
  for await (const chunk of createReadStream(filePath, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    numBytes += (chunk as Buffer).length;
    onBytes?.((chunk as Buffer).length);
  }
  return numBytes;
}

export async function sha256File(filePath: string, onBytes?: (numBytes: number) => void): Promise<string> {
  const hash = createHash('sha256');
  await hashFileInto(hash, filePath, onBytes);
  return hash.digest('hex');
}

export function gitBlobSha1(content: Uint8Array): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}
