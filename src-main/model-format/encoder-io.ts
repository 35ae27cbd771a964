/**
 * The input and output names of the two voice-cloning encoder graphs, which the builder writes
 * (model-builder/speaker-encoder/, speech-encoder/) and the engine feeds by name
 * (speaker-embedding.ts, speech-codes.ts). Names only; the manifest says which file holds each graph.
 */

/** Speaker encoder: log-mel rows [B, T, melDim] in, x-vectors [B, encDim] out. */
export const SPEAKER_ENCODER_INPUT = 'mels';
export const SPEAKER_ENCODER_OUTPUT = 'x_vector';

/** Speech encoder: 24 kHz PCM [B, numSamples] in; codes [B, numValidQuantizers, numFrames] and latent [B, numFrames, hidden] out. */
export const SPEECH_ENCODER_INPUT = 'pcm';
export const SPEECH_ENCODER_CODES = 'codes';
export const SPEECH_ENCODER_LATENT = 'latent';
