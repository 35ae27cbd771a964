/**
 * Keeps a lossy encode's loudness: after encoding, decode the file (as a player would), measure its
 * BS.1770 integrated loudness against the PCM that went in, and re-encode with the opposite gain
 * while they differ by more than LOSSY_LOUDNESS_TOLERANCE_LU. LAME at 64 kbps drops what its lowpass
 * removes, which K-weighting counts (0.44 LU on speech), so loudness set before a lossy encode would
 * not survive it. Whole-file encodes only: a stream cannot be taken back. Encoder and decoder are passed in.
 */
import { applyGainDb } from './gain';
import { measureIntegratedLoudness } from './loudness';
import { resample } from './resample';
import { measureTruePeak } from './true-peak';

/** A decoded file is re-encoded while its loudness is further than this from the input's. */
export const LOSSY_LOUDNESS_TOLERANCE_LU = 0.05;
/** Re-encodes at most this many times (one is usually enough: the codec's loss barely depends on a small gain). */
const MAX_CORRECTIONS = 2;

export interface DecodedPcm {
  pcm: Float32Array;
  sampleRateHz: number;
}

export interface LoudnessMatchedEncode {
  bytes: Uint8Array;
  /** Gain applied to the input before the encode that was kept. */
  gainDb: number;
  /** Decoded loudness minus the input's, in LU, for the kept encode (0 for silence). */
  errorLu: number;
}

/**
 * Encodes `pcm` (at `sampleRateHz`, the rate the codec runs at) so that the decoded file measures as
 * loud as `pcm`. The correction never lifts the input's true peak past 0 dBTP, where the encoder's
 * 16-bit input would clip; when that cap holds, the result may stay further off than the tolerance.
 */
export async function encodeLoudnessMatched(
  pcm: Float32Array,
  sampleRateHz: number,
  encode: (pcm: Float32Array) => Promise<Uint8Array>,
  decode: (bytes: Uint8Array) => Promise<DecodedPcm>,
): Promise<LoudnessMatchedEncode> {
  const targetLufs = measureIntegratedLoudness(pcm, sampleRateHz);
  let bytes = await encode(pcm);
  if (!Number.isFinite(targetLufs)) return { bytes, gainDb: 0, errorLu: 0 }; // silence: nothing to match
  const peak = measureTruePeak(pcm, sampleRateHz);
  const maxGainDb = -20 * Math.log10(peak);
  let gainDb = 0;
  for (let numCorrections = 0; ; numCorrections++) {
    const decoded = await decode(bytes);
    const atRate = decoded.sampleRateHz === sampleRateHz ? decoded.pcm : resample(decoded.pcm, decoded.sampleRateHz, sampleRateHz);
    const errorLu = measureIntegratedLoudness(atRate, sampleRateHz) - targetLufs;
    if (Math.abs(errorLu) <= LOSSY_LOUDNESS_TOLERANCE_LU || numCorrections === MAX_CORRECTIONS) return { bytes, gainDb, errorLu };
    const nextGainDb = Math.min(gainDb - errorLu, maxGainDb);
    if (nextGainDb <= gainDb && errorLu < 0) return { bytes, gainDb, errorLu }; // held at 0 dBTP
    gainDb = nextGainDb;
    bytes = await encode(applyGainDb(pcm, gainDb));
  }
}
