/**
 * The audio format `studio synth -o <file>` writes, from the file's extension: .wav (16-bit, or 32-bit
 * float with --float), .mp3, .opus, .aac, .flac or .pcm (raw 16-bit little-endian). Any other
 * extension is refused naming the accepted ones, before the model loads. Pure; the writing is synth-command.ts's.
 */
import path from 'node:path';
import { AUDIO_FORMATS, fileExtensionFor, type AudioFormat } from '../../src-shared/audio-format';
import { UsageError } from './cli-errors';

const ACCEPTED = AUDIO_FORMATS.map((f) => `.${fileExtensionFor(f)}`);

/** The format for `file`; `float` (--float) is only for WAV. */
export function outputFormatForPath(file: string, float: boolean): AudioFormat {
  const extension = path.extname(file).toLowerCase();
  const format = AUDIO_FORMATS.find((f) => `.${fileExtensionFor(f)}` === extension);
  if (!format) {
    const named = extension ? `has the extension '${extension}'` : 'has no extension';
    throw new UsageError(`the output file ${file} ${named}, which names no audio format the studio writes`, `end it with one of ${ACCEPTED.join(', ')} (the format follows the extension)`);
  }
  if (float && format !== 'wav') throw new UsageError(`--float writes 32-bit float WAV but the output file ${file} is ${format}`, 'drop --float, or write a .wav file');
  return format;
}
