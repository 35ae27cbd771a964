// The loaded model's name: an imported checkpoint by its folder, a hub model by its repo (the engine
// reports its build folder, a hash), a better name from the model list as given, the embedded one as is.
import { describe, expect, it } from 'vitest';
import type { ModelEntry } from '../../src-shared/contract/models';
import { clipModelLabel, loadedModelName, modelEntryName, modelEntryTypeLabel } from './model-name';
import { modelTypeLabel } from '../../src-shared/model-labels';

const HASH = '3f9a0c1d2e4b5a69-v7-fp16';
const entry = (patch: Partial<ModelEntry>): ModelEntry => ({ id: 'x', displayName: HASH, kind: 'installed', status: 'ready', synthetic: false, sizeBytes: 1, summary: '', capabilities: [], repo: null, localPath: null, ...patch });

describe('loadedModelName', () => {
  it('names an imported folder and a hub model by where they came from', () => {
    expect(loadedModelName({ id: 'local--ckpt-1a2b3c4d', displayName: HASH, synthetic: false }, [entry({ id: 'local--ckpt-1a2b3c4d', localPath: 'C:\\models\\ckpt\\' })])).toBe('ckpt (local folder)');
    expect(loadedModelName({ id: 'Qwen--Qwen3-TTS-12Hz-0.6B-CustomVoice', displayName: HASH, synthetic: false }, [entry({ id: 'Qwen--Qwen3-TTS-12Hz-0.6B-CustomVoice', repo: 'Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice' })])).toBe('Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice');
  });

  it('reads the store id when the list has not come yet, and keeps a name the list or engine gives', () => {
    expect(loadedModelName({ id: 'local--ckpt-1a2b3c4d', displayName: HASH, synthetic: false }, [])).toBe('ckpt (local folder)');
    expect(loadedModelName({ id: 'Qwen--X', displayName: HASH, synthetic: false }, [])).toBe('Qwen/X');
    expect(loadedModelName({ id: 'm', displayName: HASH, synthetic: false }, [entry({ id: 'm', displayName: 'Qwen3-TTS 0.6B' })])).toBe('Qwen3-TTS 0.6B');
    expect(loadedModelName({ id: '/data/my-folder', displayName: 'my-folder', synthetic: false }, [])).toBe('my-folder');
    expect(loadedModelName({ id: 'embedded:tiny', displayName: 'Embedded test model', synthetic: true }, [])).toBe('Embedded test model');
  });

  it('names list entries other than the loaded one as the list does', () => {
    const other = entry({ id: 'other', displayName: 'Other (local folder)', localPath: '/o' });
    expect(modelEntryName(other, { id: 'm', displayName: HASH, synthetic: false } as never, [other])).toBe('Other (local folder)');
  });
  it('names an imported synthetic checkpoint by its folder, not its build-folder hash', () => {
    const imported = entry({ id: 'local--tiny-base-1a2b3c4d', displayName: 'tiny-base (local folder)', localPath: '/tmp/x/tiny-base', synthetic: true });
    expect(loadedModelName({ id: imported.id, displayName: 'bdad3f4a79b01980-v15-fp32', synthetic: true }, [imported])).toBe('tiny-base (local folder)');
    expect(loadedModelName({ id: imported.id, displayName: 'bdad3f4a79b01980-v15-fp32', synthetic: true }, [])).toBe('tiny-base (local folder)');
    expect(loadedModelName({ id: 'embedded:tiny', displayName: 'Embedded test model', synthetic: true }, [entry({ id: 'embedded:tiny', kind: 'embedded', displayName: 'Embedded (list)' })])).toBe('Embedded test model');
  });
});

describe('modelTypeLabel', () => {
  it('says what a model speaks and its size', () => {
    expect(modelTypeLabel('base', '0b6')).toBe('Base 0.6B');
    expect(modelTypeLabel('custom_voice', '1b7')).toBe('CustomVoice 1.7B');
    expect(modelTypeLabel('voice_design')).toBe('VoiceDesign');
  });

  it('labels the loaded entry from the engine and others from the list, nothing when unknown', () => {
    const loaded = { id: 'm', kind: 'base' as const, size: '0b6' };
    expect(modelEntryTypeLabel(entry({ id: 'm' }), loaded)).toBe('Base 0.6B');
    expect(modelEntryTypeLabel(entry({ id: 'o', modelType: 'voice_design' }), loaded)).toBe('VoiceDesign');
    expect(modelEntryTypeLabel(entry({ id: 'o' }), loaded)).toBeNull();
  });
  it('names the model of a Library clip by the loaded model when the hashes match, else says another model', () => {
    const loaded = { id: 'local--ckpt-1a2b3c4d', displayName: HASH, synthetic: false, kind: 'custom_voice' as const, size: '0b6', modelHash: 'abcdef0123456789' };
    expect(clipModelLabel('abcdef0123456789', loaded, [])).toBe('ckpt (local folder) · CustomVoice 0.6B');
    expect(clipModelLabel('99990000', loaded, [])).toBe('another model (99990000)');
  });
});
