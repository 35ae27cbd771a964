/**
 * Reads a reference clip named on the command line (`studio voice clone <clip>`): a regular file of at
 * most MAX_REFERENCE_BYTES, checked by its size on disk before a byte is read, so a huge file is
 * refused without loading it. What the bytes are (format, cut short) is reference-audio.ts's job.
 */
import fs from 'node:fs';
import { MAX_REFERENCE_BYTES } from '../audio/reference-audio';
import { UsageError } from './cli-errors';

const mb = (numBytes: number) => `${(numBytes / 1048576).toFixed(0)} MB`;

/** The clip's bytes; `readBytes` is the read that follows the checks (tests pass a spy). */
export function readClipFile(file: string, readBytes: (file: string) => Uint8Array = (f) => new Uint8Array(fs.readFileSync(f))): Uint8Array {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) throw new UsageError(`no file at ${file}`, 'pass the path of an audio file');
  if (!stat.isFile()) throw new UsageError(`${file} is not a regular file`, 'pass the path of an audio file (WAV, FLAC, MP3, Ogg Vorbis or Ogg Opus)');
  if (stat.size > MAX_REFERENCE_BYTES) {
    throw new UsageError(`${file} is ${mb(stat.size)} but a reference clip may be at most ${mb(MAX_REFERENCE_BYTES)}`, 'cut it to 5–15 s of one person speaking (e.g. ffmpeg -i long.wav -t 15 clip.wav)');
  }
  return readBytes(file);
}
