/**
 * The voice library on the Speak screen: clone a voice from a clip (Base models; the clip picked or
 * recorded from the microphone, and heard before cloning: ReferenceClip.tsx) or design one from a
 * description (VoiceDesign), each saved under a name; the saved voices to use, rename or delete (with
 * a confirm and an undo), a clone's reference samples (SavedVoiceSamples.tsx). When the loaded model cannot make a kind of voice, it says which to pull.
 */
import { useEffect, useState } from 'react';
import { VOICE_MODEL_KINDS, type SavedVoice } from '../../../src-shared/contract/voices';
import { useStudioStore } from '../../store/store';
import { savedVoiceMismatch, speakableSavedVoices } from '../../components/voice-fit';
import { MicRecorder, ReferenceClipPlayer } from './ReferenceClip';
import { cloneVoiceFromFile, deleteVoiceWithUndo, designVoice, renameVoice, undoVoiceDelete } from './voice-library-actions';
import { loadSavedVoices } from '../../shared-state/voice-actions';
import { SavedVoiceSamples } from './SavedVoiceSamples';
import { hostBlockedProps, useHostBlocked } from '../../shared-state/useHostBlocked';
import { modelTypeLabel } from '../../../src-shared/model-labels';

function NeedsModel({ kind, onModels }: { kind: 'clone' | 'design'; onModels: () => void }) {
  return (
    <p className="hint" data-testid={`voice-${kind}-needs`}>
      {kind === 'clone' ? 'Cloning a voice needs a Base checkpoint' : 'Designing a voice needs a VoiceDesign checkpoint'}: pull {VOICE_MODEL_KINDS[kind].pull} and use it.{' '}
      <button className="link" onClick={onModels}>
        Models
      </button>
    </p>
  );
}

function SavedVoiceRow({ v, active, mismatch }: { v: SavedVoice; active: boolean; mismatch: string }) {
  const update = useStudioStore((s) => s.updateVoiceSettings);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  return (
    <li data-testid={`saved-voice-${v.id}`} className={active ? 'selected' : undefined}>
      {renaming === null ? (
        <strong data-testid="saved-voice-name">{v.name}</strong>
      ) : (
        <input aria-label={`New name for ${v.name}`} data-testid="saved-voice-rename-input" value={renaming} maxLength={64} onChange={(e) => setRenaming(e.target.value)} />
      )}{' '}
      <span className="muted">
        {v.kind === 'clone' ? `cloned${v.cloneMode === 'icl' ? ' in-context' : ''} · ${modelTypeLabel('base', v.model.size)}${v.clip ? ` · ${(v.clip.durationMs / 1000).toFixed(1)} s clip` : ''}` : `designed: “${v.description}”`}
      </span>
      {v.warnings.length > 0 && <span className="hint"> ({v.warnings.join('; ')})</span>}
      <span className="toolbar">
        <button data-testid="saved-voice-use" disabled={active || mismatch !== ''} title={mismatch || undefined} onClick={() => update({ voice: v.id })}>
          {active ? 'In use' : 'Use'}
        </button>
        {renaming === null ? (
          <button onClick={() => setRenaming(v.name)}>Rename</button>
        ) : (
          <>
            <button data-testid="saved-voice-rename-save" onClick={() => void renameVoice(v.id, renaming).then((ok) => ok && setRenaming(null))}>
              Save name
            </button>
            <button onClick={() => setRenaming(null)}>Cancel</button>
          </>
        )}
        {confirming ? (
          <>
            <span>Delete “{v.name}”?</span>
            <button className="danger" data-testid="saved-voice-delete-confirm" onClick={() => void deleteVoiceWithUndo(v.id)}>
              Delete
            </button>
            <button onClick={() => setConfirming(false)}>Keep</button>
          </>
        ) : (
          <button data-testid="saved-voice-delete" onClick={() => setConfirming(true)}>
            Delete
          </button>
        )}
      </span>
      <SavedVoiceSamples v={v} mismatch={mismatch} />
    </li>
  );
}

export function SavedVoicesPanel() {
  const modelInfo = useStudioStore((s) => s.modelInfo);
  const saved = useStudioStore((s) => s.savedVoices);
  const pending = useStudioStore((s) => s.pendingVoiceDelete);
  const error = useStudioStore((s) => s.voiceLibraryError);
  const busy = useStudioStore((s) => s.voiceLibraryBusy);
  const current = useStudioStore((s) => s.voiceSettings.voice);
  const setArea = useStudioStore((s) => s.setArea);
  const hostBlocked = useHostBlocked();
  const [cloneName, setCloneName] = useState('');
  const [cloneFile, setCloneFile] = useState<File | null>(null);
  const [cloneText, setCloneText] = useState('');
  /** Bumped after a voice is saved: a new file field (a file input cannot be cleared from state). */
  const [cloneFormKey, setCloneFormKey] = useState(0);
  const [designName, setDesignName] = useState('');
  const [description, setDescription] = useState('');

  useEffect(() => {
    void loadSavedVoices();
  }, []);

  const canClone = modelInfo?.kind === 'base';
  const canDesign = modelInfo?.kind === 'voice_design';
  const usable = speakableSavedVoices(saved, modelInfo);

  return (
    <div className="field saved-voices" data-testid="saved-voices">
      <label>Saved voices</label>
      {canClone && usable.length === 0 && <p className="hint">This Base model speaks cloned voices: clone one from a clip of 5–15 s of one person speaking.</p>}
      {saved.length > 0 && (
        <ul className="plain-list" data-testid="saved-voice-list">
          {saved.map((v) => (
            <SavedVoiceRow key={v.id} v={v} active={current === v.id} mismatch={savedVoiceMismatch(v, modelInfo)} />
          ))}
        </ul>
      )}
      {saved.length > usable.length && modelInfo && <p className="hint">Cloned voices speak on a Base model of the size they were cloned with, designed voices on a VoiceDesign model; the others here need their model loaded.</p>}
      {pending && (
        <p role="status" data-testid="voice-undo-bar">
          Deleted “{pending.name}”.{' '}
          <button data-testid="voice-undo" onClick={undoVoiceDelete}>
            Undo
          </button>
        </p>
      )}
      <details data-testid="voice-clone">
        <summary>Clone from a clip…</summary>
        {canClone ? (
          <form
            key={cloneFormKey}
            className="voice-clone-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (cloneFile) void cloneVoiceFromFile(cloneName, cloneFile, cloneText).then((v) => v && (setCloneName(''), setCloneFile(null), setCloneText(''), setCloneFormKey((k) => k + 1)));
            }}
          >
            <input aria-label="Name of the cloned voice" data-testid="voice-clone-name" placeholder="Name, e.g. Anna" value={cloneName} maxLength={64} onChange={(e) => setCloneName(e.target.value)} />
            <input aria-label="Reference clip (WAV, MP3, FLAC or Ogg)" data-testid="voice-clone-file" type="file" accept="audio/*,.wav,.mp3,.flac,.ogg,.opus" onChange={(e) => setCloneFile(e.target.files?.[0] ?? null)} />
            <MicRecorder onRecorded={setCloneFile} disabled={busy !== null} />
            {cloneFile && <ReferenceClipPlayer file={cloneFile} />}
            <textarea
              aria-label="What the clip says (optional)"
              data-testid="voice-clone-text"
              rows={2}
              maxLength={4096}
              value={cloneText}
              onChange={(e) => setCloneText(e.target.value)}
              placeholder="What the clip says (optional): with it the voice is cloned in-context, more faithfully; without it from its timbre alone"
            />
            <button className="primary" data-testid="voice-clone-save" type="submit" disabled={!cloneFile || cloneName.trim() === '' || busy !== null || hostBlocked !== null} {...hostBlockedProps(hostBlocked)}>
              {busy === 'clone' ? 'Cloning…' : 'Clone and save'}
            </button>
          </form>
        ) : (
          <NeedsModel kind="clone" onModels={() => setArea('models')} />
        )}
      </details>
      <details data-testid="voice-design">
        <summary>Design from a description…</summary>
        {canDesign ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void designVoice(designName, description).then((v) => v && (setDesignName(''), setDescription('')));
            }}
          >
            <input aria-label="Name of the designed voice" data-testid="voice-design-name" placeholder="Name, e.g. Calm narrator" value={designName} maxLength={64} onChange={(e) => setDesignName(e.target.value)} />
            <textarea aria-label="Voice description" data-testid="voice-design-description" rows={2} maxLength={4096} value={description} onChange={(e) => setDescription(e.target.value)} placeholder="e.g. a calm elderly woman with a low, warm voice" />
            <button className="primary" data-testid="voice-design-save" type="submit" disabled={designName.trim() === '' || description.trim() === '' || busy !== null || hostBlocked !== null} {...hostBlockedProps(hostBlocked)}>
              {busy === 'design' ? 'Saving…' : 'Save voice'}
            </button>
          </form>
        ) : (
          <NeedsModel kind="design" onModels={() => setArea('models')} />
        )}
      </details>
      {error && (
        <p role="alert" className="error" data-testid="voice-library-error">
          {error}
        </p>
      )}
    </div>
  );
}
