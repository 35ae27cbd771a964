// @vitest-environment jsdom
// The voice library on the Speak screen against an in-memory bridge: a clip picked in the file field
// is uploaded as bytes and the saved voice becomes the speaker; a model that cannot clone or design
// says which checkpoint to pull; rename; delete asks first, hides the voice, and Undo keeps it
// (the library is called only when the undo window ends).
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useStudioStore } from '../../store/store';
import { StudioError } from '../../../src-shared/errors';
import { installScriptedBridge, type ScriptedBridge } from '../../testing/scripted-bridge';
import { resetBetweenTests } from '../../testing/reset-between-tests';
import type { SavedVoice } from '../../../src-shared/contract/voices';
import type { ModelInfo } from '../../../src-shared/synthesis';
import { SavedVoicesPanel } from './SavedVoicesPanel';
import { commitVoiceDelete, deleteVoiceWithUndo } from './voice-library-actions';

const BASE = { id: 'base', displayName: 'Tiny Base', kind: 'base', size: '0b6', voices: [], languages: [] } as unknown as ModelInfo;
const ANNA: SavedVoice = { id: 'v-0123456789ab', name: 'Anna', kind: 'clone', createdAtMs: 1, model: { id: 'base', kind: 'base', size: '0b6' }, description: null, cloneMode: 'xvector', clip: { originalName: 'a.mp3', fileName: 'v-0123456789ab.mp3', sizeBytes: 3, durationMs: 4200 }, warnings: [] };

function installVoicesBridge(saved: SavedVoice[]): ScriptedBridge {
  return installScriptedBridge(
    {
      'studio:voices.list': saved,
      'studio:voices.clone': ({ name }) => ({ ...ANNA, name }),
      'studio:voices.rename': ({ name }) => ({ ...ANNA, name }),
      'studio:voices.delete': { deleted: true },
    },
    (channel) => {
      throw new StudioError('unsupported', channel);
    },
  );
}

/** The panel on `modelInfo` with `saved` in the library. */
function renderPanel(saved: SavedVoice[], modelInfo: ModelInfo = BASE): ScriptedBridge {
  const bridge = installVoicesBridge(saved);
  useStudioStore.setState({ modelInfo });
  render(<SavedVoicesPanel />);
  return bridge;
}

resetBetweenTests();

describe('SavedVoicesPanel', () => {
  it('uploads a picked clip as bytes, saves it under the name and selects it', async () => {
    const bridge = renderPanel([]);
    expect(screen.getByText(/This Base model speaks cloned voices/)).toBeTruthy();
    fireEvent.change(screen.getByTestId('voice-clone-name'), { target: { value: 'Anna' } });
    const file = new File([Uint8Array.of(1, 2, 3)], 'anna.mp3', { type: 'audio/mpeg' });
    fireEvent.change(screen.getByTestId('voice-clone-file'), { target: { files: [file] } });
    fireEvent.change(screen.getByTestId('voice-clone-text'), { target: { value: ' Hello there. ' } });
    expect((screen.getByTestId('voice-clone-save') as HTMLButtonElement).disabled).toBe(false);
    fireEvent.submit(screen.getByTestId('voice-clone-save').closest('form')!);
    await waitFor(() => expect(JSON.stringify([useStudioStore.getState().voiceLibraryError, useStudioStore.getState().voiceSettings.voice])).toBe(JSON.stringify([null, ANNA.id])));
    const clone = bridge.requestsTo('studio:voices.clone')[0] as { name: string; audio: Uint8Array; originalName: string; refText: string };
    expect(clone.name).toBe('Anna');
    expect(clone.refText).toBe('Hello there.');
    expect(clone.originalName).toBe('anna.mp3');
    expect([...clone.audio]).toEqual([1, 2, 3]);
    expect(screen.getByTestId(`saved-voice-${ANNA.id}`).textContent).toMatch(/Anna.*cloned · Base 0.6B · 4.2 s clip/);
  });

  it('names the checkpoint to pull when the model cannot clone or design', () => {
    renderPanel([], { ...BASE, kind: 'custom_voice' } as ModelInfo);
    expect(screen.getByTestId('voice-clone-needs').textContent).toMatch(/needs a Base checkpoint: pull Qwen3-TTS-12Hz-0.6B-Base or Qwen3-TTS-12Hz-1.7B-Base/);
    expect(screen.getByTestId('voice-design-needs').textContent).toMatch(/needs a VoiceDesign checkpoint: pull Qwen3-TTS-12Hz-1.7B-VoiceDesign/);
    expect(screen.queryByTestId('voice-clone-save')).toBeNull();
  });

  it('renames a voice', async () => {
    const bridge = renderPanel([ANNA]);
    await screen.findByTestId(`saved-voice-${ANNA.id}`);
    fireEvent.click(screen.getByText('Rename'));
    fireEvent.change(screen.getByTestId('saved-voice-rename-input'), { target: { value: 'Narrator' } });
    fireEvent.click(screen.getByTestId('saved-voice-rename-save'));
    await waitFor(() => expect(screen.getByTestId('saved-voice-name').textContent).toBe('Narrator'));
    expect(bridge.requestsTo('studio:voices.rename')[0]).toEqual({ id: ANNA.id, name: 'Narrator' });
  });

  it('asks before deleting, hides the voice, and Undo brings it back without a library call', async () => {
    const bridge = renderPanel([ANNA]);
    await screen.findByTestId(`saved-voice-${ANNA.id}`);
    fireEvent.click(screen.getByTestId('saved-voice-delete'));
    expect(screen.getByText('Delete “Anna”?')).toBeTruthy();
    fireEvent.click(screen.getByTestId('saved-voice-delete-confirm'));
    await screen.findByTestId('voice-undo-bar');
    expect(screen.queryByTestId(`saved-voice-${ANNA.id}`)).toBeNull();
    fireEvent.click(screen.getByTestId('voice-undo'));
    expect(screen.getByTestId(`saved-voice-${ANNA.id}`)).toBeTruthy();
    expect(bridge.requestsTo('studio:voices.delete')).toHaveLength(0);
  });

  it('deletes in the library once the undo window ends', async () => {
    const bridge = installVoicesBridge([ANNA]);
    useStudioStore.setState({ savedVoices: [ANNA], voiceSettings: { ...useStudioStore.getState().voiceSettings, voice: ANNA.id } });
    await deleteVoiceWithUndo(ANNA.id, 10);
    expect(useStudioStore.getState().voiceSettings.voice).not.toBe(ANNA.id);
    await waitFor(() => expect(bridge.requestsTo('studio:voices.delete')).not.toHaveLength(0));
    expect(useStudioStore.getState().pendingVoiceDelete).toBeNull();
    await commitVoiceDelete(); // nothing pending: no second call
    expect(bridge.requestsTo('studio:voices.delete')).toHaveLength(1);
  });

  it('says why when the library refuses a delete, and lists the saved voices again (the voice is still there)', async () => {
    const bridge = installScriptedBridge({
      'studio:voices.list': [ANNA],
      'studio:voices.delete': () => {
        throw new StudioError('internal', 'library is read-only');
      },
    });
    useStudioStore.setState({ savedVoices: [ANNA] });
    await deleteVoiceWithUndo(ANNA.id, 10);
    await waitFor(() => expect(bridge.requestsTo('studio:voices.list')).toHaveLength(1));
    expect(useStudioStore.getState().voiceLibraryError).toContain('library is read-only');
    expect(useStudioStore.getState().savedVoices.map((v) => v.id)).toEqual([ANNA.id]);
  });
});
