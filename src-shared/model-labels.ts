/**
 * A checkpoint's size and type as people read them: config.json writes '0b6' / '1b7' and 'custom_voice',
 * screens and messages say 0.6B / 1.7B and CustomVoice ("CustomVoice 0.6B"); an unknown size is shown
 * as given. Requests and records keep the raw values. Pure.
 */
import type { ModelType } from './contract/models';

const TYPE_LABELS: Readonly<Record<ModelType, string>> = { custom_voice: 'CustomVoice', voice_design: 'VoiceDesign', base: 'Base' };

export function modelSizeLabel(size: string): string {
  const sized = /^(\d+)b(\d+)$/i.exec(size);
  return sized ? `${sized[1]}.${sized[2]}B` : size;
}

/** "Base 0.6B", "CustomVoice 1.7B": what a model speaks and its size; the type alone without one (an unknown type as given). */
export function modelTypeLabel(type: ModelType | string, size?: string | null): string {
  const name = (TYPE_LABELS as Readonly<Record<string, string>>)[type] ?? type;
  return size ? `${name} ${modelSizeLabel(size)}` : name;
}
