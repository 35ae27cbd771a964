/**
 * Why Generate cannot run with a voice on the loaded model, in words that say the fix, or null when
 * it can: a Base model speaks only cloned voices, a saved voice only on the model kind and size it
 * was made with, a CustomVoice model only its own speakers. For a document, every turn's voice is
 * checked (the <voice name> of each turn, and the chosen voice for text outside them). The engine
 * would refuse these anyway; the screen says so before the click. Pure.
 */
import { findSavedVoice, type SavedVoice } from '../../src-shared/contract/voices';
import type { ModelInfo, VoiceInfo } from '../../src-shared/synthesis';
import { savedVoiceMismatch, speakableSavedVoices } from './voice-fit';
import { readMarkup } from './ssml-markup';

export interface VoiceBlockerInput {
  model: Pick<ModelInfo, 'kind' | 'size'> | null;
  /** The loaded model as the screen names it. */
  modelName: string;
  /** The chosen voice: a speaker's name or a saved voice's id. */
  voice: string;
  speakers: readonly Pick<VoiceInfo, 'name'>[];
  savedVoices: readonly SavedVoice[];
}

export function voiceBlocker({ model, modelName, voice, speakers, savedVoices }: VoiceBlockerInput): string | null {
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

/**
 * The voices a document's turns speak with, in order of first use: each <voice name>, and
 * `chosenVoice` where text stands outside any <voice> (all of plain text, or unreadable markup).
 */
export function documentVoices(doc: string, format: 'text' | 'ssml', chosenVoice: string): string[] {
  const m = format === 'ssml' ? readMarkup(doc) : null;
  if (!m || typeof m === 'string') return [chosenVoice];
  const found: string[] = [];
  let depth = 0;
  let at = m.contentFrom;
  const textBefore = (to: number) => depth === 0 && /\S/.test(doc.slice(at, to)) && found.push(chosenVoice);
  for (const t of m.tags) {
    if (t.from < m.contentFrom || t.to > m.contentTo) continue;
    textBefore(t.from);
    at = t.to;
    if (t.name !== 'voice') continue;
    if (t.kind === 'open') {
      depth++;
      if (t.attrs.name) found.push(t.attrs.name);
    } else if (t.kind === 'close') depth--;
  }
  textBefore(m.contentTo);
  return [...new Set(found)];
}

/**
 * Why the document cannot be generated on the loaded model because of a turn's voice, or null. Read
 * leniently, a name that is neither the model's speaker nor a saved voice falls back to the chosen
 * voice (the parser warns), so the chosen voice is what is checked for it.
 */
export function documentVoiceBlocker(input: Omit<VoiceBlockerInput, 'voice'> & { doc: string; format: 'text' | 'ssml'; chosenVoice: string; lenient?: boolean }): string | null {
  const known = (name: string) => input.speakers.some((s) => s.name === name) || findSavedVoice(name, input.savedVoices) !== null || input.savedVoices.some((v) => v.id === name);
  const names = documentVoices(input.doc, input.format, input.chosenVoice).map((name) => (input.lenient && !known(name) ? input.chosenVoice : name));
  for (const name of new Set(names)) {
    const voice = input.savedVoices.find((v) => v.id === name) ? name : (findSavedVoice(name, input.savedVoices)?.id ?? name);
    const why = voiceBlocker({ ...input, voice });
    if (why) return name === input.chosenVoice ? why : `A turn's voice "${name}": ${why}`;
  }
  return null;
}
