/**
 * The Speak screen, the studio's home: a text box (in SSML mode the SSML editor with its tuning and
 * pronunciation panels, SpeakSsmlEditor.tsx), the voice beside it (speaker with audible
 * previews, language, seed kept or drawn anew, instruct, the sampling parameters), Generate with
 * streamed playback, and the result with the voice, seed and parameters the engine actually used,
 * a player and a WAV download; under it the take history with A/B compare (SpeakTakes.tsx).
 */
import { Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useStudioStore } from '../../store/store';
import { encodeWav, downloadBytes } from '../../components/wav-encode';
import { SEED_LIMIT } from '../../../src-shared/sampling-limits';
import { NumberField } from '../../components/NumberField';
import { loadVoiceData } from '../../shared-state/voice-actions';
import { DiceIcon } from '../../components/DiceIcon';
import { SamplingFields } from '../../shared-state/SamplingFields';
import { cancelAll, randomSeed } from '../../shared-state/generate-actions';
import { previewVoice, speak } from './speak-actions';
import type { SpeakResult } from './speak.slice';
import { savedVoiceMismatch, speakableSavedVoices } from '../../components/voice-fit';
import { savedVoiceLabel, speakerDisplayName, voiceDisplayName } from '../../components/voice-names';
import { loadedModelName } from '../../components/model-name';
import { modelTypeLabel } from '../../../src-shared/model-labels';
import { speakBlocker } from './speak-blocker';
import { SpeakTakes } from './SpeakTakes';
import { lazyWithRetry } from '../../components/lazy-with-retry';
import { hostBlockedReason } from '../../ipc/connection';
import { hostBlockedProps } from '../../shared-state/useHostBlocked';

/** CodeMirror loads with SSML mode, not with the first page (scripts/renderer-budget.test.ts). */
const SpeakSsmlEditor = lazyWithRetry(() => import('./SpeakSsmlEditor').then((m) => m.SpeakSsmlEditor));

function UsedLine({ r }: { r: SpeakResult }) {
  const u = r.used;
  const savedVoices = useStudioStore((s) => s.savedVoices);
  return (
    <p className="used" data-testid="speak-used">
      Made with <strong data-testid="speak-used-voice">{voiceDisplayName(u.voice, savedVoices)}</strong> · language {u.language} · seed <strong data-testid="speak-used-seed">{u.seed}</strong> ·{' '}
      {u.doSample ? `temperature ${u.temperature}, top-k ${u.topK}, top-p ${u.topP}` : 'greedy'}, repetition penalty {u.repetitionPenalty} · {(r.durationMs / 1000).toFixed(2)} s of audio, RTF {r.rtf.toFixed(2)}
    </p>
  );
}

function ResultCard({ r }: { r: SpeakResult }) {
  const wav = useMemo(() => encodeWav(r.pcm, r.sampleRateHz, 'pcm16'), [r]);
  const url = useMemo(() => URL.createObjectURL(new Blob([wav as BlobPart], { type: 'audio/wav' })), [wav]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return (
    <div className="speak-result" data-testid="speak-result">
      <UsedLine r={r} />
      {r.warnings.length > 0 && <p className="hint">Engine warnings: {r.warnings.join('; ')}</p>}
      <div className="toolbar">
        <audio controls src={url} data-testid="speak-audio" aria-label="Generated speech" />
        <button data-testid="speak-download" onClick={() => downloadBytes(wav, `speech-${r.used.voice}-seed${r.used.seed}.wav`, 'audio/wav')}>
          Download WAV
        </button>
      </div>
    </div>
  );
}

/** `voiceLibrary`: the voice library's panel under the speaker, placed there by the app shell (area-panels.tsx). */
export function SpeakPanel({ voiceLibrary = null }: { voiceLibrary?: ReactNode }) {
  const text = useStudioStore((s) => s.speakText);
  const format = useStudioStore((s) => s.speakFormat);
  const setText = useStudioStore((s) => s.setSpeakText);
  const setFormat = useStudioStore((s) => s.setSpeakFormat);
  const seedMode = useStudioStore((s) => s.seedMode);
  const setSeedMode = useStudioStore((s) => s.setSeedMode);
  const result = useStudioStore((s) => s.speakResult);
  const error = useStudioStore((s) => s.speakError);
  const previewing = useStudioStore((s) => s.previewingVoice);
  const modelInfo = useStudioStore((s) => s.modelInfo);
  const voices = useStudioStore((s) => s.voices);
  const models = useStudioStore((s) => s.models);
  const settings = useStudioStore((s) => s.voiceSettings);
  const update = useStudioStore((s) => s.updateVoiceSettings);
  const setArea = useStudioStore((s) => s.setArea);
  const savedVoices = useStudioStore((s) => s.savedVoices);
  const running = useStudioStore((s) => s.jobs.some((j) => j.kind === 'speak' && (j.state === 'waiting' || j.state === 'running')));

  useEffect(() => {
    if (!useStudioStore.getState().modelInfo) void loadVoiceData();
  }, []);

  const languages = ['auto', ...(modelInfo?.languages ?? [])];
  const modelName = modelInfo ? loadedModelName(modelInfo, models) : null;
  const selected = voices.find((v) => v.name === settings.voice);
  // Only what the loaded model can speak is offered; a chosen voice it cannot speak stays visible, disabled, with the reason.
  const speakable = speakableSavedVoices(savedVoices, modelInfo);
  const offered = selected !== undefined || speakable.some((v) => v.id === settings.voice);
  const chosenSaved = savedVoices.find((v) => v.id === settings.voice);
  const unavailable = modelInfo && !offered ? { name: chosenSaved?.name ?? voiceDisplayName(settings.voice, savedVoices), why: chosenSaved ? savedVoiceMismatch(chosenSaved, modelInfo) : `${modelName} has no speaker of that name` } : null;
  const canInstruct = modelInfo?.supportsInstruct === true && modelInfo.kind !== 'voice_design';
  const hostBlocked = useStudioStore((s) => hostBlockedReason(s.connection)); // the host is away or this browser signed out
  const blocker = hostBlocked ?? (modelInfo ? speakBlocker({ model: modelInfo, modelName: modelName ?? modelInfo.displayName, voice: settings.voice, speakers: voices, savedVoices }) : null);
  // SSML mode: the live check's problems keep Generate off too (the preview of a word is not held by them)
  const [numSsmlProblems, setNumSsmlProblems] = useState(0);
  const generateBlocker = blocker ?? (format === 'ssml' && numSsmlProblems > 0 ? `Fix the SSML problem${numSsmlProblems > 1 ? 's' : ''} shown under the editor first.` : null);

  return (
    <section className="panel speak-panel" aria-labelledby="speak-heading">
      <div className="panel-head">
        <h2 id="speak-heading">Speak</h2>
        <span className="muted" data-testid="speak-model">
          {modelName ?? 'waiting for the engine…'}
        </span>
        {modelInfo && (
          <span className="badge" data-testid="speak-model-type" title="what the loaded model speaks">
            {modelTypeLabel(modelInfo.kind, modelInfo.size)}
          </span>
        )}
        <button className="link" onClick={() => setArea('models')}>
          Models
        </button>
      </div>
      <div className="speak-grid">
        <div className="speak-text">
          <div className="inline">
            <label htmlFor="speak-input">Text</label>
            <span role="radiogroup" aria-label="Text format" className="segmented">
              <label>
                <input type="radio" name="speak-format" checked={format === 'text'} onChange={() => setFormat('text')} /> Plain text
              </label>
              <label>
                <input type="radio" name="speak-format" checked={format === 'ssml'} onChange={() => setFormat('ssml')} /> SSML
              </label>
            </span>
            <span className="muted">{text.length} characters</span>
          </div>
          {format === 'ssml' ? (
            <Suspense fallback={<p className="muted">Loading the SSML editor…</p>}><SpeakSsmlEditor blocker={blocker} running={running} onSubmit={() => void speak()} onProblems={setNumSsmlProblems} /></Suspense>
          ) : (
            <textarea
              id="speak-input"
              data-testid="speak-input"
              rows={9}
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                  e.preventDefault();
                  e.stopPropagation();
                  if (!running && blocker === null) void speak();
                }
              }}
              aria-keyshortcuts="Control+Enter Meta+Enter"
            />
          )}
          <div className="toolbar">
            <button
              className="primary"
              data-testid="speak-generate"
              disabled={running || !modelInfo || generateBlocker !== null}
              aria-describedby={generateBlocker ? 'speak-blocked' : undefined}
              onClick={() => void speak()}
              title={generateBlocker ?? 'Ctrl/Cmd+Enter in the text box'}
            >
              {running ? 'Generating…' : 'Generate'}
            </button>
            <button onClick={() => void cancelAll()} disabled={!running}>
              Cancel
            </button>
            <span className="muted" data-testid="speak-will-use">
              will use {voiceDisplayName(settings.voice, savedVoices)} · seed {seedMode === 'random' ? 'new random' : settings.seed}
            </span>
          </div>
          {generateBlocker && (
            <p className="hint" role="status" id="speak-blocked" data-testid="speak-blocked">
              {generateBlocker}
            </p>
          )}
          {error && (
            <p role="alert" className="error" data-testid="speak-error">
              {error}
            </p>
          )}
          {result && <ResultCard r={result} />}
          <SpeakTakes />
        </div>

        <div className="speak-voice" role="group" aria-label="Voice">
          <div className="field">
            <label htmlFor="speak-speaker">Speaker</label>
            <div className="inline">
              <select id="speak-speaker" data-testid="speak-speaker" value={settings.voice} onChange={(e) => update({ voice: e.target.value })}>
                {voices.map((v) => (
                  <option key={v.name} value={v.name}>
                    {speakerDisplayName(v.name)} — {v.nativeLanguage}
                  </option>
                ))}
                {unavailable && (
                  <option value={settings.voice} disabled>
                    {unavailable.name} — not on this model
                  </option>
                )}
                {speakable.length > 0 && (
                  <optgroup label="Saved voices">
                    {speakable.map((v) => (
                      <option key={v.id} value={v.id}>
                        {savedVoiceLabel(v)}
                      </option>
                    ))}
                  </optgroup>
                )}
              </select>
              <button data-testid="speak-preview" disabled={!modelInfo || previewing !== null || hostBlocked !== null} onClick={() => void previewVoice(settings.voice)} aria-label={`Preview ${voiceDisplayName(settings.voice, savedVoices)}`} {...hostBlockedProps(hostBlocked)}>
                {previewing === settings.voice ? 'Making preview…' : 'Preview'}
              </button>
            </div>
            {selected && <p className="hint">{selected.description}</p>}
            {unavailable && (
              <p className="hint" role="status" data-testid="speak-speaker-unavailable">
                {unavailable.name} cannot speak on the loaded model: {unavailable.why}. Pick another speaker.
              </p>
            )}
          </div>
          {voiceLibrary}
          <div className="field">
            <label htmlFor="speak-language">Language</label>
            <select id="speak-language" value={settings.language} onChange={(e) => update({ language: e.target.value })}>
              {languages.map((l) => (
                <option key={l} value={l}>
                  {l === 'auto' ? 'auto (detect from the text)' : l}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="speak-seed">Seed</label>
            <div className="inline">
              {/* a typed seed is meant to be used: it turns "new random seed each time" off rather than being ignored */}
              <NumberField
                id="speak-seed"
                data-testid="speak-seed"
                range={SEED_LIMIT}
                value={settings.seed}
                onValue={(seed) => {
                  if (seed === null) return;
                  update({ seed });
                  if (seedMode === 'random') setSeedMode('keep');
                }}
              />
              <button className="icon-button" aria-label="Random seed" title="Random seed" onClick={() => update({ seed: randomSeed() })}>
                <DiceIcon />
              </button>
            </div>
            <label className="check">
              <input type="checkbox" data-testid="speak-seed-random" checked={seedMode === 'random'} onChange={(e) => setSeedMode(e.target.checked ? 'random' : 'keep')} /> New random seed each time
            </label>
          </div>
          {canInstruct && (
            <div className="field">
              <label htmlFor="speak-instruct">Instruct</label>
              <textarea id="speak-instruct" rows={2} value={settings.instruct} onChange={(e) => update({ instruct: e.target.value })} placeholder="e.g. speak warmly, a little slower" />
            </div>
          )}
          <details className="sampling" open>
            <summary>Sampling</summary>
            <SamplingFields />
          </details>
        </div>
      </div>
    </section>
  );
}
