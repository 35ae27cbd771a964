/**
 * Saved voices at synthesis time: finds the one a turn names (by id, or by name case-insensitively)
 * among those main attached to the request, and turns it into what the engine takes — a cloned voice
 * into a speaker embedding (Base), a designed one into instruct text (VoiceDesign) — refusing a model
 * that cannot speak it with the checkpoint to pull. Pure.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import { StudioError } from '../../src-shared/errors';
import { VOICE_MODEL_KINDS, type SavedVoiceConditioning } from '../../src-shared/contract/voices';
import { modelSizeLabel, modelTypeLabel } from '../../src-shared/model-labels';

/** Which saved voice a turn names: the contract's one rule, as main applies it when it attaches them. */
export { findSavedVoice } from '../../src-shared/contract/voices';

export interface LoadedModelFacts {
  kind: string;
  size: string;
}

export interface VoiceConditioning {
  speakerEmbedding?: readonly number[];
  /** In-context clones: the reference clip's codes and transcript. */
  refCodes?: readonly (readonly number[])[];
  refText?: string;
  instruct?: string;
  warnings: string[];
}

export function conditioningFor(voice: SavedVoiceConditioning, model: LoadedModelFacts): VoiceConditioning {
  const need = VOICE_MODEL_KINDS[voice.kind];
  if (model.kind !== need.kind) {
    const what = voice.kind === 'clone' ? 'is cloned from a clip and speaks only on a Base model' : 'is designed from a description and speaks only on a VoiceDesign model';
    throw new StudioError('unsupported', `saved voice '${voice.name}' ${what}, but the loaded model is ${modelTypeLabel(model.kind, model.size)}; pull ${need.pull} on the Models page (or studio model pull) and use it`, {
      field: 'voice',
      value: voice.name,
      validValues: [need.kind],
    });
  }
  if (voice.kind === 'design') return { instruct: voice.description ?? '', warnings: [] };
  if (!voice.prompt) throw new StudioError('internal', `saved voice '${voice.name}' has no clone prompt; delete it and clone it again`, { field: 'voice' });
  if (voice.modelSize !== model.size) {
    throw new StudioError('unsupported', `saved voice '${voice.name}' was cloned with a ${modelSizeLabel(voice.modelSize)} Base model and speaks only on one of that size (the loaded one is ${modelSizeLabel(model.size)}); use that model or clone the voice again with this one`, {
      field: 'voice',
      value: voice.name,
    });
  }
  const p = voice.prompt;
  return p.mode === 'icl' ? { speakerEmbedding: p.embedding, refCodes: p.refCodes, refText: p.refText, warnings: [] } : { speakerEmbedding: p.embedding, warnings: [] };
}
