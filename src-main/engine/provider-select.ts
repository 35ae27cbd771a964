/**
 * Chooses the execution provider: an explicit choice is checked, 'auto' ranks what this machine can
 * run (providers.ts AUTO_ORDER) and says why each was taken or skipped. Pure planning over a
 * ProviderProbe (runtime/provider-probe.ts gathers the facts) and each provider's requirements.
 * The engine tries the planned candidates in order and falls back when a session fails to start.
 */
import { StudioError } from '../../src-shared/errors';
import type { BuildDtype } from '../model-format/manifest';
import type { ProviderChoice } from './engine-config';
import type { ProviderProbe } from './runtime/provider-probe';
import { AUTO_ORDER, findProvider, hasRequiredDevice, PROVIDERS, type ProviderName } from './runtime/providers';

export interface ProviderCandidate {
  provider: ProviderName;
  reason: string;
  /** The build dtype this provider runs best: fp16 on GPU providers, fp32 on CPU (createEngine uses that build when it exists). */
  preferredDtype: BuildDtype;
}

/** The build dtype a provider runs best (providers.ts: fp16 on GPU providers, fp32 on CPU). */
export function preferredDtype(provider: ProviderName): BuildDtype {
  return PROVIDERS[provider].preferredDtype;
}

/**
 * The build dtype resolveModel builds for a provider choice: a provider's own preferred dtype; for 'auto'
 * the preferred dtype of its last resort (AUTO_ORDER's last: the CPU, fp32), since 'auto' may end there
 * and every provider runs that build (a GPU provider swaps in its fp16 sibling when built,
 * model-dir-for-provider.ts); a name the table lacks fp16 (config validation rejects it later).
 */
export function buildDtypeFor(choice: string): BuildDtype {
  if (choice === 'auto') return PROVIDERS[AUTO_ORDER[AUTO_ORDER.length - 1]].preferredDtype;
  return findProvider(choice)?.preferredDtype ?? 'fp16';
}

export interface ProviderPlan {
  candidates: ProviderCandidate[];
  /** Why the providers not in `candidates` were skipped. */
  skipped: string[];
}

/** A requirement of the provider table (providers.ts `requires`) that this machine does not meet, or the CUDA libraries that do not load. */
export interface UnmetRequirement {
  requirement: 'backend' | 'platform' | 'setup' | 'device' | 'libraries';
  reason: string;
}

/**
 * Every requirement `provider` does not meet here, in the order they are checked (empty: it can run; every
 * provider runs fp32 and fp16 builds, CPU fp16 slower). The libraries are checked only once the provider is
 * installed on a machine with its device (the probe loads them only then).
 */
export function unmetRequirements(provider: ProviderName, probe: ProviderProbe, explicit: boolean): UnmetRequirement[] {
  const { label, ort, requires } = PROVIDERS[provider];
  const unmet: UnmetRequirement[] = [];
  if (requires.backend && !probe.backends.includes(provider)) unmet.push({ requirement: 'backend', reason: `not in this onnxruntime-node build (${probe.backends.join(', ')})` });
  if (requires.platforms && !requires.platforms.names.includes(probe.platform)) unmet.push({ requirement: 'platform', reason: `${label} exists on ${requires.platforms.label} only (this is ${probe.platform})` });
  if (requires.setup && !probe.installed[provider]) unmet.push({ requirement: 'setup', reason: `the ${label} provider (${ort.library}) is not installed; run '${requires.setup}'` });
  const device = unmetDevice(provider, probe, explicit);
  if (device) unmet.push({ requirement: 'device', reason: device });
  const libraryProblem = probe.libraryProblems[provider];
  if (unmet.length === 0 && requires.libraries && libraryProblem) unmet.push({ requirement: 'libraries', reason: libraryProblem });
  return unmet;
}

function unmetDevice(provider: ProviderName, probe: ProviderProbe, explicit: boolean): string | null {
  const { device } = PROVIDERS[provider].requires;
  if (hasRequiredDevice(device, probe)) return null;
  switch (device) {
    case 'nvidia':
      return 'no NVIDIA device (/dev/nvidiactl missing)';
    case 'gpu':
      if (probe.hasSoftwareVulkan) return explicit ? null : `only a software Vulkan driver (lavapipe), slower than the CPU provider; ask for ${provider} explicitly to use it`;
      return 'no GPU device node (/dev/dri/renderD*, /dev/nvidiactl)';
    case null:
      return null;
  }
}

/** Why `provider` cannot run here (its first unmet requirement), or null when it can. */
function unavailableReason(provider: ProviderName, probe: ProviderProbe, _dtype: BuildDtype, explicit: boolean): string | null {
  const [first] = unmetRequirements(provider, probe, explicit);
  return first ? `${provider}: ${first.reason}` : null;
}

export function planProviders(choice: ProviderChoice, probe: ProviderProbe, dtype: BuildDtype): ProviderPlan {
  if (choice !== 'auto') {
    const reason = unavailableReason(choice, probe, dtype, true);
    if (reason) {
      throw new StudioError('unsupported', `provider '${choice}' cannot run here: ${reason}; pick another provider or 'auto'`, {
        field: 'provider',
        validValues: AUTO_ORDER.filter((p) => unavailableReason(p, probe, dtype, true) === null),
      });
    }
    return { candidates: [{ provider: choice, reason: `requested explicitly (${dtype} graphs)`, preferredDtype: preferredDtype(choice) }], skipped: [] };
  }
  const candidates: ProviderCandidate[] = [];
  const skipped: string[] = [];
  for (const provider of AUTO_ORDER) {
    const reason = unavailableReason(provider, probe, dtype, false);
    if (reason) skipped.push(reason);
    else candidates.push({ provider, reason: `auto: best available of ${AUTO_ORDER.join(' > ')}; skipped: ${skipped.join('; ') || 'none'}`, preferredDtype: preferredDtype(provider) });
  }
  if (candidates.length === 0) {
    throw new StudioError('unsupported', `no execution provider can run this ${dtype} model: ${skipped.join('; ')}`, { field: 'provider' });
  }
  return { candidates, skipped };
}
