/**
 * Which saved voices the loaded model can speak, by the rule the engine host enforces
 * (src-main/engine-host/saved-voices.ts): a cloned voice on a Base model of the size it was cloned
 * with, a designed voice on a VoiceDesign model. Speaker pickers offer only those, so a voice the
 * model would refuse is never one click away. Pure.
 */
import { VOICE_MODEL_KINDS, type SavedVoice } from '../../src-shared/contract/voices';
import type { ModelInfo } from '../../src-shared/synthesis';
import { modelSizeLabel } from '../../src-shared/model-labels';

/** Why `model` cannot speak `voice` ('' when it can; unknown before a model is loaded). */
export function savedVoiceMismatch(voice: SavedVoice, model: Pick<ModelInfo, 'kind' | 'size'> | null): string {
  if (!model) return 'the engine has not reported its model yet';
  const need = VOICE_MODEL_KINDS[voice.kind];
  if (model.kind !== need.kind) return voice.kind === 'clone' ? `a cloned voice speaks on a ${modelSizeLabel(voice.model.size)} Base model; pull and use ${need.pull}` : `a designed voice speaks on a VoiceDesign model; pull and use ${need.pull}`;
  if (voice.kind === 'clone' && voice.model.size !== model.size) return `cloned with a ${modelSizeLabel(voice.model.size)} Base model, it speaks only on one of that size (the loaded one is ${modelSizeLabel(model.size)})`;
  return '';
}

/** The saved voices `model` can speak, in their order. */
export function speakableSavedVoices(saved: readonly SavedVoice[], model: Pick<ModelInfo, 'kind' | 'size'> | null): SavedVoice[] {
  return saved.filter((v) => savedVoiceMismatch(v, model) === '');
}
