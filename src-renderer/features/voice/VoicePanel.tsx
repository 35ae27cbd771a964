/**
 * The Voice panel: model picker (with the embedded test model labelled as random-weight noise),
 * the speakers with descriptions and native languages, language, seed with a dice button,
 * sampling parameters with the checkpoint's defaults and a reset, instruct text or a VoiceDesign
 * description depending on what the model supports.
 */
import { useEffect } from 'react';
import { useStudioStore } from '../../store/store';
import { SEED_LIMIT } from '../../../src-shared/sampling-limits';
import { NumberField } from '../../components/NumberField';
import { DiceIcon } from '../../components/DiceIcon';
import { SamplingFields } from '../../shared-state/SamplingFields';
import { loadVoiceData, switchModel } from '../../shared-state/voice-actions';
import { speakableSavedVoices } from '../../components/voice-fit';
import { speakerDisplayName } from '../../components/voice-names';
import { loadedModelName, modelEntryName, modelEntryTypeLabel } from '../../components/model-name';
import { modelTypeLabel } from '../../../src-shared/model-labels';

export function VoicePanel() {
  const modelInfo = useStudioStore((s) => s.modelInfo);
  const voices = useStudioStore((s) => s.voices);
  const allSavedVoices = useStudioStore((s) => s.savedVoices);
  const models = useStudioStore((s) => s.models);
  const settings = useStudioStore((s) => s.voiceSettings);
  const loadError = useStudioStore((s) => s.voiceLoadError);
  const update = useStudioStore((s) => s.updateVoiceSettings);
  const switching = useStudioStore((s) => s.modelSwitching);
  const setArea = useStudioStore((s) => s.setArea);
  const setSeedMode = useStudioStore((s) => s.setSeedMode);

  useEffect(() => {
    void loadVoiceData();
  }, []);

  const selectedVoice = voices.find((v) => v.name === settings.voice);
  const savedVoices = speakableSavedVoices(allSavedVoices, modelInfo);
  const languages = ['auto', ...(modelInfo?.languages ?? [])];
  const isDesign = modelInfo?.kind === 'voice_design';
  const usable = models.filter((m) => m.kind !== 'known');
  const typeSuffix = (m: (typeof models)[number]) => {
    const label = modelEntryTypeLabel(m, modelInfo);
    return label ? ` · ${label}` : '';
  };

  return (
    <section className="panel voice-panel" aria-labelledby="voice-heading">
      <h2 id="voice-heading">Voice</h2>
      {loadError && <p role="alert" className="error">Could not load the model's voices: {loadError}</p>}
      <div className="field">
        <label htmlFor="model-picker">Model</label>
        <select id="model-picker" value={settings.modelId ?? modelInfo?.id ?? ''} disabled={switching} onChange={(e) => void switchModel(e.target.value)}>
          {modelInfo && !usable.some((m) => m.id === modelInfo.id) && (
            <option value={modelInfo.id}>{loadedModelName(modelInfo, models)} · {modelTypeLabel(modelInfo.kind, modelInfo.size)}{modelInfo.synthetic ? ' — random weights, produces noise' : ''}</option>
          )}
          {usable.map((m) => (
            <option key={m.id} value={m.id}>
              {modelEntryName(m, modelInfo, models)}{typeSuffix(m)}{m.synthetic ? ' — random weights, produces noise' : ''}{m.status !== 'ready' ? ` (${m.status})` : ''}
            </option>
          ))}
        </select>
        {modelInfo?.synthetic && (
          <p className="hint" data-testid="model-synthetic-hint">
            The loaded model is a synthetic test checkpoint with random weights: it produces noise, not speech.{' '}
            <button className="link" onClick={() => setArea('models')}>Open the model manager</button> to install a real model.
          </p>
        )}
        {switching && (
          <p className="hint" role="status" data-testid="model-switching">
            Loading the model: the engine restarts, which can take a while for a full-size checkpoint…
          </p>
        )}
      </div>

      <fieldset className="speakers">
        <legend>Speaker</legend>
        {voices.length === 0 && savedVoices.length === 0 && <p className="hint">No speakers yet{modelInfo ? '' : ' — the engine is still loading'}.</p>}
        <div className="speaker-grid" role="radiogroup" aria-label="Speaker">
          {voices.map((v) => (
            <label key={v.name} className={`speaker ${v.name === settings.voice ? 'selected' : ''}`}>
              <input type="radio" name="speaker" value={v.name} checked={v.name === settings.voice} onChange={() => update({ voice: v.name })} />
              <span className="speaker-name">{speakerDisplayName(v.name)}</span>
              <span className="speaker-lang">{v.nativeLanguage}{v.dialect ? ` (${v.dialect})` : ''}</span>
              <span className="speaker-desc">{v.description}</span>
            </label>
          ))}
          {savedVoices.map((v) => (
            <label key={v.id} className={`speaker ${v.id === settings.voice ? 'selected' : ''}`}>
              <input type="radio" name="speaker" value={v.id} checked={v.id === settings.voice} onChange={() => update({ voice: v.id })} />
              <span className="speaker-name">{v.name}</span>
              <span className="speaker-lang">saved</span>
              <span className="speaker-desc">{v.kind === 'clone' ? `cloned voice (${modelTypeLabel('base', v.model.size)})` : `designed: ${v.description}`}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <div className="row">
        <div className="field">
          <label htmlFor="language">Language</label>
          <select id="language" value={settings.language} onChange={(e) => update({ language: e.target.value })}>
            {languages.map((l) => (
              <option key={l} value={l}>{l === 'auto' ? 'auto (detect from the text)' : l}</option>
            ))}
          </select>
          {selectedVoice && settings.language !== 'auto' && selectedVoice.nativeLanguage.toLowerCase() !== settings.language && (
            <p className="hint">{selectedVoice.name} is native in {selectedVoice.nativeLanguage}; other languages may sound accented.</p>
          )}
        </div>
        <div className="field">
          <label htmlFor="seed">Seed</label>
          <div className="inline">
            {/* a typed seed is meant to be used: it turns Speak's "new random seed each time" off */}
            <NumberField
              id="seed"
              range={SEED_LIMIT}
              value={settings.seed}
              onValue={(seed) => {
                if (seed === null) return;
                update({ seed });
                setSeedMode('keep');
              }}
            />
            <button className="icon-button" aria-label="Random seed" title="Random seed" onClick={() => update({ seed: Math.floor(Math.random() * 2 ** 31) })}>
              <DiceIcon />
            </button>
          </div>
        </div>
      </div>

      <fieldset className="params">
        <legend>Sampling</legend>
        <SamplingFields />
      </fieldset>

      <div className="field">
        <label htmlFor="instruct">Instruct</label>
        <textarea id="instruct" rows={2} value={settings.instruct} disabled={!modelInfo?.supportsInstruct || isDesign} onChange={(e) => update({ instruct: e.target.value })} placeholder="e.g. speak warmly, a little slower" />
        {!modelInfo?.supportsInstruct && !isDesign && (
          <p className="hint" data-testid="instruct-reason">
            {modelInfo ? `${loadedModelName(modelInfo, models)} does not take instructions (only the 1.7B CustomVoice and VoiceDesign models do).` : 'Waiting for the engine to report whether the model takes instructions.'}
          </p>
        )}
      </div>
      {isDesign && (
        <div className="field">
          <label htmlFor="voice-description">Voice description (VoiceDesign)</label>
          <textarea id="voice-description" rows={3} value={settings.voiceDescription} onChange={(e) => update({ voiceDescription: e.target.value })} placeholder="e.g. a calm, low female voice with a slight rasp" />
        </div>
      )}
    </section>
  );
}
