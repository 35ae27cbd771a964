/**
 * listVoices: the speakers a model offers (from its manifest's spk_id table) joined with the
 * studio's descriptions in resources/voices/voices.json. A speaker the data file does not know
 * still appears, with a plain description; the manifest decides which voices exist.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { VoiceInfo } from '../../src-shared/synthesis';
import type { ModelManifest } from '../model-format/manifest';
import { appRootDir } from '../platform/paths';

interface VoiceDescriptor {
  description: string;
  nativeLanguage: string;
}

/** resources/voices/voices.json under the app root (works from source and from the bundled out/ build). */
export function defaultVoicesFile(): string {
  return path.join(appRootDir(), 'resources', 'voices', 'voices.json');
}

export function readVoiceDescriptors(file = defaultVoicesFile()): Record<string, VoiceDescriptor> {
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { voices: Record<string, VoiceDescriptor> };
  return json.voices;
}

export function listVoices(manifest: Pick<ModelManifest, 'speakers'>, descriptors = readVoiceDescriptors()): VoiceInfo[] {
  return Object.entries(manifest.speakers).map(([name, speaker]) => {
    const known = descriptors[name];
    return {
      name,
      description: known?.description ?? `Speaker '${name}' of this checkpoint`,
      nativeLanguage: known?.nativeLanguage ?? (speaker.dialect ? 'chinese' : 'unknown'),
      dialect: speaker.dialect,
    };
  });
}
