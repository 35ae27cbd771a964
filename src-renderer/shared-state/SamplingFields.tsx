/**
 * The sampling parameters of the voice settings, each with the checkpoint's default beside it and
 * a reset (the Voice and Speak screens show the same fields over the same store state). The valid
 * ranges are the shared SAMPLING_PARAM_LIMITS the engine checks.
 */
import { useStudioStore } from '../store/store';
import { SAMPLING_PARAM_LIMITS, type NumericSamplingParam } from '../../src-shared/sampling-limits';
import { NumberField } from '../components/NumberField';

/** Labels and arrow-key steps; the valid ranges are the shared SAMPLING_PARAM_LIMITS the engine checks. */
const NUMBER_PARAMS: { key: NumericSamplingParam; label: string; step: number }[] = [
  { key: 'temperature', label: 'Temperature', step: 0.05 },
  { key: 'topK', label: 'Top-k', step: 1 },
  { key: 'topP', label: 'Top-p', step: 0.01 },
  { key: 'repetitionPenalty', label: 'Repetition penalty', step: 0.01 },
  { key: 'subtalkerTemperature', label: 'Code predictor temperature', step: 0.05 },
  { key: 'subtalkerTopK', label: 'Code predictor top-k', step: 1 },
  { key: 'subtalkerTopP', label: 'Code predictor top-p', step: 0.01 },
  { key: 'maxNewTokens', label: 'Max new frames', step: 1 },
];

/** The sampling parameters with the checkpoint's defaults beside each and a reset (Voice and Speak screens). */
export function SamplingFields() {
  const modelInfo = useStudioStore((s) => s.modelInfo);
  const settings = useStudioStore((s) => s.voiceSettings);
  const setParam = useStudioStore((s) => s.setParam);
  const resetParams = useStudioStore((s) => s.resetParams);
  const params = settings.params ?? modelInfo?.defaultParams ?? null;
  const defaults = modelInfo?.defaultParams ?? null;
  if (!params) return <p className="hint">The defaults come from the loaded checkpoint; waiting for the engine.</p>;
  return (
    <>
      <label className="check">
        <input type="checkbox" checked={params.doSample} onChange={(e) => setParam('doSample', e.target.checked)} /> Sample (off: greedy)
      </label>
      <label className="check">
        <input type="checkbox" checked={params.subtalkerDoSample} onChange={(e) => setParam('subtalkerDoSample', e.target.checked)} /> Sample code predictor
      </label>
      <div className="param-grid">
        {NUMBER_PARAMS.map((p) => (
          <label key={p.key}>
            <span>{p.label}{defaults ? <span className="muted"> (default {String(defaults[p.key])})</span> : null}</span>
            <NumberField aria-label={p.label} step={p.step} range={SAMPLING_PARAM_LIMITS[p.key]} value={params[p.key]} onValue={(v) => v !== null && setParam(p.key, v)} />
          </label>
        ))}
      </div>
      <button onClick={resetParams} disabled={!defaults}>Reset to the checkpoint's defaults</button>
    </>
  );
}
