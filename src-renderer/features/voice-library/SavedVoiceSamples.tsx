/**
 * A cloned voice's reference samples under its row in the voice library: each clip with its length,
 * clone mode and warnings, the one the voice speaks with picked by a radio, and a form to add another
 * clip (picked, with what it says for an in-context clone). Adding needs the host and a Base model of
 * the voice's size; the controls say why when they are off.
 */
import { useState } from 'react';
import type { SavedVoice } from '../../../src-shared/contract/voices';
import { useStudioStore } from '../../store/store';
import { hostBlockedReason } from '../../ipc/connection';
import { addVoiceSample, pickVoiceSample } from './voice-library-actions';

export function SavedVoiceSamples({ v, mismatch }: { v: SavedVoice; mismatch: string }) {
  const hostBlocked = useStudioStore((s) => hostBlockedReason(s.connection));
  const busy = useStudioStore((s) => s.voiceLibraryBusy);
  const modelKind = useStudioStore((s) => s.modelInfo?.kind ?? null);
  const [file, setFile] = useState<File | null>(null);
  const [refText, setRefText] = useState('');
  const [formKey, setFormKey] = useState(0);
  const samples = v.samples ?? [];
  if (v.kind !== 'clone' || samples.length === 0) return null;
  const addBlocked = hostBlocked ?? (modelKind !== 'base' ? 'Adding a sample needs a Base model loaded.' : mismatch ? `Adding a sample needs the model the voice was made with: ${mismatch}.` : null);
  const pickBlocked = hostBlocked;
  return (
    <details className="voice-samples" data-testid="saved-voice-samples">
      <summary>
        {samples.length} reference sample{samples.length === 1 ? '' : 's'}
      </summary>
      <ul role="radiogroup" aria-label={`Which sample ${v.name} speaks with`}>
        {samples.map((x) => (
          <li key={x.sampleId} data-testid="saved-voice-sample">
            <label title={pickBlocked ?? undefined}>
              <input type="radio" name={`sample-${v.id}`} checked={x.sampleId === v.activeSampleId} disabled={pickBlocked !== null} onChange={() => void pickVoiceSample(v.id, x.sampleId)} data-testid="saved-voice-sample-use" />{' '}
              {x.clip.originalName} · {(x.clip.durationMs / 1000).toFixed(1)} s{x.cloneMode === 'icl' ? ' · in-context' : ''}
              {x.sampleId === v.activeSampleId ? <strong> · speaks</strong> : null}
            </label>
            {x.warnings.length > 0 && <span className="hint"> ({x.warnings.join('; ')})</span>}
          </li>
        ))}
      </ul>
      <div className="inline" key={formKey}>
        <input type="file" accept="audio/*" aria-label={`Another reference clip for ${v.name}`} disabled={addBlocked !== null} onChange={(e) => setFile(e.target.files?.[0] ?? null)} data-testid="saved-voice-sample-file" />
        <input aria-label="What the clip says (optional)" placeholder="what the clip says (optional)" value={refText} disabled={addBlocked !== null} onChange={(e) => setRefText(e.target.value)} />
        <button
          disabled={addBlocked !== null || file === null || busy !== null}
          title={addBlocked ?? (file === null ? 'Pick a clip first' : undefined)}
          onClick={() =>
            void addVoiceSample(v.id, file!, refText).then((added) => {
              if (!added) return;
              setFile(null);
              setRefText('');
              setFormKey((k) => k + 1);
            })
          }
          data-testid="saved-voice-sample-add"
        >
          {busy === 'clone' ? 'Adding…' : 'Add sample'}
        </button>
      </div>
      {addBlocked && <p className="hint" data-testid="saved-voice-sample-blocked">{addBlocked}</p>}
    </details>
  );
}
