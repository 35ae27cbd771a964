/**
 * A cloned voice as a saveable record: what a Base checkpoint needs to speak in a reference clip's voice.
 * Made once from a clip (engine side), stored by the voice library, sent back with each request.
 * Types only; the modes are the two of the official generate_voice_clone.
 */

/**
 * 'xvector': the speaker embedding alone (x_vector_only_mode=True).
 * 'icl': in-context mode, the official default: the embedding plus the reference clip's codes and transcript.
 */
export type ClonePromptMode = 'xvector' | 'icl';

export interface ClonePrompt {
  mode: ClonePromptMode;
  /** The speaker encoder's output: talker.hiddenSize values. */
  embedding: number[];
  /** 'icl' only: the speech tokenizer's codes of the reference clip, [numFrames][16], 12.5 frames a second. */
  refCodes?: number[][];
  /** 'icl' only: the transcript of the reference clip. */
  refText?: string;
}
