/**
 * The lexicon editor beside the SSML editor: give the selected word an alias (<sub>) or a phoneme
 * string (<phoneme>, IPA or X-SAMPA), preview just that word with the current voice, apply it here or
 * to every occurrence, and the list of the document's pronunciations to edit, preview or remove.
 * Store-agnostic: the editor hands it the document, the selection and how to apply an edit; the
 * screen hands it how to preview (pronunciations.ts writes the markup).
 */
import { useEffect, useState } from 'react';
import type { EditMaker } from './ProsodyPanel';
import { PHONEME_ALPHABETS, applyPronunciation, listPronunciations, previewDocument, removePronunciation, updatePronunciation, type PhonemeAlphabet, type Pronunciation, type PronunciationEntry } from './pronunciations';

export interface PronunciationPreview {
  /** Speaks `ssml` (one word) with the screen's current voice. */
  run(ssml: string): void;
  busy: boolean;
  /** Why a preview cannot run now (no engine, a voice the model cannot speak), or null. */
  blocked: string | null;
}

export interface PronunciationPanelProps {
  blocked: string | null;
  doc: string;
  selection: { from: number; to: number };
  apply(make: EditMaker, done: string): string;
  preview?: PronunciationPreview;
}

function describe(p: PronunciationEntry['pronunciation']): string {
  return p.kind === 'sub' ? `says “${p.alias}”` : `${p.alphabet} /${p.ph}/`;
}

export function PronunciationPanel({ blocked, doc, selection, apply, preview }: PronunciationPanelProps) {
  const [kind, setKind] = useState<'sub' | 'phoneme'>('sub');
  const [alias, setAlias] = useState('');
  const [alphabet, setAlphabet] = useState<PhonemeAlphabet>('ipa');
  const [ph, setPh] = useState('');
  const [everywhere, setEverywhere] = useState(false);
  const [editing, setEditing] = useState<PronunciationEntry | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const entries = listPronunciations(doc);
  // An entry's offsets hold only for the document it was read from.
  useEffect(() => setEditing(null), [doc]);

  // what the selection says, markup aside (a selection over an element shows its word)
  const selected = editing?.word ?? doc.slice(selection.from, selection.to).replace(/<[^>]*>/g, '').trim();
  const pronunciation: Pronunciation = kind === 'sub' ? { kind, alias } : { kind, alphabet, ph };
  const off = blocked !== null;
  const previewWhy = !preview ? 'Preview is not offered here.' : preview.blocked ?? (selected ? null : 'Select a word to preview.');

  const startEdit = (e: PronunciationEntry) => {
    setEditing(e);
    setKind(e.pronunciation.kind);
    if (e.pronunciation.kind === 'sub') setAlias(e.pronunciation.alias);
    else {
      setPh(e.pronunciation.ph);
      setAlphabet((PHONEME_ALPHABETS as readonly string[]).includes(e.pronunciation.alphabet) ? (e.pronunciation.alphabet as PhonemeAlphabet) : 'ipa');
    }
    setMessage(`Editing “${e.word}”: change it and Apply, or Cancel.`);
  };
  const applyIt = () => {
    if (editing) {
      const entry = editing;
      setMessage(apply((d) => updatePronunciation(d, entry, pronunciation), `Pronunciation of “${entry.word}” changed.`));
      setEditing(null);
      return;
    }
    setMessage(apply((d, f, t) => applyPronunciation(d, f, t, pronunciation, everywhere), `Pronunciation added to “${selected}”.`));
  };

  return (
    <div className="lexicon-panel" role="group" aria-label="Pronunciations" data-testid="lexicon-panel">
      <div className="toolbar">
        <strong className="muted">Pronunciation</strong>
        <span data-testid="lexicon-word">{selected ? `“${selected}”` : <span className="muted">select a word</span>}</span>
        <select aria-label="Pronunciation kind" value={kind} disabled={off} onChange={(e) => setKind(e.target.value as 'sub' | 'phoneme')} data-testid="lexicon-kind">
          <option value="sub">say instead (alias)</option>
          <option value="phoneme">phonemes</option>
        </select>
        {kind === 'sub' ? (
          <input aria-label="Say instead" placeholder="e.g. World Wide Web" value={alias} disabled={off} onChange={(e) => setAlias(e.target.value)} data-testid="lexicon-alias" />
        ) : (
          <>
            <select aria-label="Phoneme alphabet" value={alphabet} disabled={off} onChange={(e) => setAlphabet(e.target.value as PhonemeAlphabet)} data-testid="lexicon-alphabet">
              {PHONEME_ALPHABETS.map((a) => (
                <option key={a} value={a}>{a.toUpperCase()}</option>
              ))}
            </select>
            <input aria-label="Phonemes" className="mono" placeholder={alphabet === 'ipa' ? 'təˈmɑːtoʊ' : 't@"mA:toU'} value={ph} disabled={off} onChange={(e) => setPh(e.target.value)} data-testid="lexicon-ph" />
          </>
        )}
        {!editing && (
          <label className="check">
            <input type="checkbox" checked={everywhere} disabled={off} onChange={(e) => setEverywhere(e.target.checked)} data-testid="lexicon-everywhere" /> every occurrence
          </label>
        )}
        <button disabled={previewWhy !== null || preview?.busy} title={previewWhy ?? 'Speak just this word with the current voice'} onClick={() => preview?.run(previewDocument(selected, pronunciation))} data-testid="lexicon-preview">
          {preview?.busy ? 'Previewing…' : 'Preview'}
        </button>
        <button disabled={off} onClick={applyIt} data-testid="lexicon-apply">
          {editing ? 'Apply change' : 'Apply'}
        </button>
        {editing && <button onClick={() => (setEditing(null), setMessage(null))}>Cancel</button>}
      </div>
      {kind === 'phoneme' && !off && <p className="hint">The model speaks the written word for phonemes (the studio keeps them for other engines); to change what it says, use an alias.</p>}
      {off && <p className="hint">{blocked}</p>}
      {message && !off && (
        <p className="muted" role="status" data-testid="lexicon-message">
          {message}
        </p>
      )}
      {entries.length > 0 && (
        <table className="lexicon-list" data-testid="lexicon-list">
          <caption className="muted">Pronunciations in this document</caption>
          <tbody>
            {entries.map((e) => (
              <tr key={`${e.from}-${e.word}`} data-testid="lexicon-entry">
                <td>{e.word}</td>
                <td className="mono">{describe(e.pronunciation)}</td>
                <td>
                  <button className="link" disabled={off} onClick={() => startEdit(e)} aria-label={`Edit the pronunciation of ${e.word}`}>Edit</button>{' '}
                  <button className="link" disabled={!preview || preview.blocked !== null || preview.busy} title={preview?.blocked ?? undefined} onClick={() => preview?.run(previewDocument(e.word, e.pronunciation.kind === 'sub' ? e.pronunciation : null))} aria-label={`Preview ${e.word}`}>
                    Preview
                  </button>{' '}
                  <button className="link" disabled={off} onClick={() => setMessage(apply((d) => removePronunciation(d, e), `Pronunciation of “${e.word}” removed.`))} aria-label={`Remove the pronunciation of ${e.word}`} data-testid="lexicon-remove">
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
