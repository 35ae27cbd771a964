// The loaded model's name: an imported checkpoint by its folder, a hub model by its repo (the engine
// reports its build folder, a hash), a better name from the model list as given, the embedded one as is.
import { describe, expect, it } from 'vitest';
import type { ModelEntry } from '../../../src-shared/contract/models';
import { loadedModelName, modelEntryName } from './model-name';

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
});
