/**
 * The execution providers' names and labels, for help text and the Settings hint (renderer and CLI).
 * Pure data: src-main/engine/runtime/providers.ts keeps every capability, keyed by these names in this
 * order with these labels (providers.test.ts checks that they agree).
 */

export const PROVIDER_LABELS = { cpu: 'CPU', webgpu: 'WebGPU', cuda: 'CUDA', dml: 'DirectML' } as const;

export type ProviderName = keyof typeof PROVIDER_LABELS;

/** What --provider and engine config accept: 'auto', then every provider in the table's order. */
export const PROVIDER_CHOICES: readonly string[] = ['auto', ...Object.keys(PROVIDER_LABELS)];

/** The choices as a list for help text: 'auto, cpu, webgpu, cuda, dml', or with `last` before the final one ('auto, cpu, webgpu, cuda or dml'). */
export function listProviderChoices(last: ', ' | ' or ' = ', '): string {
  return `${PROVIDER_CHOICES.slice(0, -1).join(', ')}${last}${PROVIDER_CHOICES[PROVIDER_CHOICES.length - 1]}`;
}
