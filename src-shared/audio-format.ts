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
export const DEFAULT_OUTPUT_LOUDNESS: Readonly<OutputLoudness> = Object.freeze({ targetLufs: -16, truePeakCeilingDbtp: -1 });

/** A loudness target: BS.1770 integrated loudness and the true-peak ceiling no sample may pass. */
export interface OutputLoudness {
  targetLufs: number;
  truePeakCeilingDbtp: number;
}

/** The accepted ranges (inclusive); the normaliser, the contract schema and the HTTP API check these. */
export const OUTPUT_LOUDNESS_LIMITS = Object.freeze({
  targetLufs: Object.freeze({ min: -70, max: -5 }),
  truePeakCeilingDbtp: Object.freeze({ min: -9, max: 0 }),
});

/** Why `loudness` is out of range ('' when it is fine); one message for the UI, the contract and the API. */
export function outputLoudnessProblem(loudness: OutputLoudness, names = { targetLufs: 'targetLufs', truePeakCeilingDbtp: 'truePeakCeilingDbtp' }): string {
  const { targetLufs: t, truePeakCeilingDbtp: c } = OUTPUT_LOUDNESS_LIMITS;
  if (!Number.isFinite(loudness.targetLufs) || loudness.targetLufs < t.min || loudness.targetLufs > t.max) {
    return `${names.targetLufs} is ${loudness.targetLufs} but must be from ${t.min} to ${t.max} LUFS; use -16 (podcast) or -23 (EBU R128)`;
  }
  if (!Number.isFinite(loudness.truePeakCeilingDbtp) || loudness.truePeakCeilingDbtp < c.min || loudness.truePeakCeilingDbtp > c.max) {
    return `${names.truePeakCeilingDbtp} is ${loudness.truePeakCeilingDbtp} but must be from ${c.min} to ${c.max} dBTP; use -1`;
  }
  return '';
}
