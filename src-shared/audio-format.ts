/**
 * The closed list of audio formats the studio writes: OpenAI's speech `response_format` values,
 * used by the HTTP API and the studio's export alike, with their content types and file extensions.
 * Types and constants only; the encoders live in src-main/audio/encode-audio.ts.
 */

/** OpenAI's order; mp3 is OpenAI's default for /v1/audio/speech. */
export const AUDIO_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;

export type AudioFormat = (typeof AUDIO_FORMATS)[number];

export function isAudioFormat(value: unknown): value is AudioFormat {
  return typeof value === 'string' && (AUDIO_FORMATS as readonly string[]).includes(value);
}

/**
 * Content types: opus is an Ogg Opus file (RFC 7845 §9 registers audio/ogg for it), aac is a bare
 * ADTS stream (audio/aac), pcm is raw 16-bit little-endian mono samples with no header.
 */
const CONTENT_TYPES: { readonly [F in AudioFormat]: string } = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

const FILE_EXTENSIONS: { readonly [F in AudioFormat]: string } = {
  mp3: 'mp3',
  opus: 'opus',
  aac: 'aac',
  flac: 'flac',
  wav: 'wav',
  pcm: 'pcm',
};

export function contentTypeFor(format: AudioFormat): string {
  return CONTENT_TYPES[format];
}

/** File name extension without the dot. */
export function fileExtensionFor(format: AudioFormat): string {
  return FILE_EXTENSIONS[format];
}

/** The studio's output loudness: every clip is normalised to this (BS.1770 integrated, true-peak ceiling). */
export const DEFAULT_OUTPUT_LOUDNESS = Object.freeze({ targetLufs: -16, truePeakCeilingDbtp: -1 });
