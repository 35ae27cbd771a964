/**
 * The one start-up line a GPU user reads first: which provider runs, why, and what is missing for a
 * faster one ("provider: WebGPU — auto: …; faster: …; concurrency: …"), with the batch limits the plan
 * picked (wide where the provider table and the device's memory allow, engine-plan.ts). Pure: built from the provider table (auto's
 * order, labels, requires.setup) and the probe's facts through provider-select.ts; it names no provider
 * itself. createEngine logs it once the chosen provider's sessions have opened.
 */
import type { ProviderChoice } from './engine-config';
import type { ConcurrencyPlan } from './engine-plan';
import { unmetRequirements } from './provider-select';
import type { ProviderProbe } from './runtime/provider-probe';
import { AUTO_ORDER, PROVIDERS, type ProviderName } from './runtime/providers';

export interface ProviderSummaryInput {
  choice: ProviderChoice;
  /** The provider whose sessions opened. */
  provider: ProviderName;
  probe: ProviderProbe;
  /** Candidates that failed to open the model before it (with 'auto'). */
  failed?: readonly ProviderName[];
  /** Auto's order, best first (default: the provider table's autoRank order). */
  order?: readonly ProviderName[];
  /** The batch limits the plan picked; absent: not named. */
  concurrency?: ConcurrencyPlan;
  /** Whether the plan runs shape buckets (absent: on); off, the row counts are not named. */
  shapeBuckets?: 'on' | 'off';
}

/** "concurrency: wide, 64 running, 16 prefilled a step, 64-row talker / 8-row code predictor buckets (why)". */
function describeConcurrency(c: ConcurrencyPlan, buckets: 'on' | 'off'): string {
  const rows = buckets === 'on' ? `${c.talkerRows}-row talker / ${c.codePredictorRows}-row code predictor buckets` : 'no shape buckets';
  return `concurrency: ${c.kind}, ${c.maxRunningSequences} running, ${c.maxPrefillSequences} prefilled a step, ${rows} (${c.reason})`;
}

/**
 * What another provider lacks here: 'elsewhere' when it cannot exist on this machine (another platform, not
 * in this build), 'hardware' when its device is missing, 'fixable' when an install or the libraries are.
 */
type Lack = { kind: 'runs' | 'failed' | 'hardware' | 'fixable'; text: string } | { kind: 'elsewhere' };

function lackOf(provider: ProviderName, probe: ProviderProbe, failed: readonly ProviderName[]): Lack {
  if (failed.includes(provider)) return { kind: 'failed', text: 'failed to open the model (see the log above)' };
  const unmet = unmetRequirements(provider, probe, false);
  if (unmet.some((u) => u.requirement === 'backend' || u.requirement === 'platform')) return { kind: 'elsewhere' };
  const device = unmet.find((u) => u.requirement === 'device');
  if (device) return { kind: 'hardware', text: device.reason };
  const { setup } = PROVIDERS[provider].requires;
  if (setup && unmet.some((u) => u.requirement === 'setup')) return { kind: 'fixable', text: `install it with ${setup}` };
  const libraries = unmet.find((u) => u.requirement === 'libraries');
  if (libraries) return { kind: 'fixable', text: libraries.reason };
  return { kind: 'runs', text: 'runs here too' };
}

/** "provider: <label> — <why>; faster: <what is missing>", plus the slower providers an install would add. */
export function describeProviderSummary(input: ProviderSummaryInput): string {
  const order = input.order ?? AUTO_ORDER;
  const failed = input.failed ?? [];
  const label = (p: ProviderName) => PROVIDERS[p].label;
  const failedNote = failed.length > 0 ? ` (${failed.map(label).join(', ')} failed to open the model)` : '';
  const why = input.choice === 'auto' ? `auto: the first of ${order.map(label).join(' > ')} that runs here${failedNote}` : `requested (provider '${input.choice}')`;

  const rank = order.indexOf(input.provider);
  const others = order.filter((p) => p !== input.provider).map((p) => ({ p, faster: order.indexOf(p) < rank, lack: lackOf(p, input.probe, failed) }));
  const faster = others.flatMap(({ p, faster, lack }) => (faster && lack.kind !== 'elsewhere' ? [`${label(p)} — ${lack.text}`] : []));
  const installable = others.flatMap(({ p, faster, lack }) => (!faster && lack.kind === 'fixable' ? [`${label(p)} (${lack.text})`] : []));

  const alsoText = installable.length > 0 ? `; also possible: ${installable.join(', ')}` : '';
  const concurrencyText = input.concurrency ? `; ${describeConcurrency(input.concurrency, input.shapeBuckets ?? 'on')}` : '';
  return `provider: ${label(input.provider)} — ${why}; faster: ${faster.length > 0 ? faster.join(', ') : 'none here'}${alsoText}${concurrencyText}`;
}
