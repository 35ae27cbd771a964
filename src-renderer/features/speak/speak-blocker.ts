/**
 * Why Generate cannot run with the chosen voice on the loaded model, in words that say the fix, or
 * null when it can: a Base model speaks only cloned voices, a saved voice only on the model kind and
 * size it was made with, a CustomVoice model only its own speakers. The engine would refuse these
 * anyway; the screen says so before the click. Pure.
 */
import type { SavedVoice } from '../../../src-shared/contract/voices';
import type { ModelInfo, VoiceInfo } from '../../../src-shared/synthesis';
import { savedVoiceMismatch, speakableSavedVoices } from '../../components/voice-fit';

export interface SpeakBlockerInput {
  model: Pick<ModelInfo, 'kind' | 'size'> | null;
  /** The loaded model as the screen names it. */
  modelName: string;
  /** The chosen voice: a speaker's name or a saved voice's id. */
  voice: string;
  speakers: readonly Pick<VoiceInfo, 'name'>[];
  savedVoices: readonly SavedVoice[];
}

export function speakBlocker({ model, modelName, voice, speakers, savedVoices }: SpeakBlockerInput): string | null {
  if (!model) return 'Waiting for the engine to load a model.';
  const saved = savedVoices.find((v) => v.id === voice);
  if (saved) {
    const why = savedVoiceMismatch(saved, model);
    return why ? `${saved.name} cannot speak on ${modelName}: ${why}. Pick another voice.` : null;
  }
  switch (model.kind) {
    case 'base': {
      const clones = speakableSavedVoices(savedVoices, model);
      return clones.length > 0
        ? `${modelName} is a Base model: it speaks only cloned voices. Pick one under Saved voices (${clones.map((v) => v.name).join(', ')}).`
        : `${modelName} is a Base model: it speaks only cloned voices, and none fits it yet. Clone a voice from a reference clip under Saved voices, or load a CustomVoice model.`;
    }
    case 'voice_design':
      // the voice description carries the voice; a speaker name is not used
      return null;
    case 'custom_voice':
      return speakers.some((s) => s.name === voice) ? null : `${modelName} has no speaker "${voice}". Pick one of its speakers.`;
  }
}
