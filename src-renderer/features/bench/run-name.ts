/**
 * A benchmark run's name as people read it: its config (variants, workloads, client counts,
 * window × passes, the voice by the name every screen shows) and when it started, e.g.
 * "before · plain · 1, 2 clients · 5 s × 1 · Dec 7 03:40". The run id stays the key; the name is
 * what lists and headings show. Pure.
 */
import type { BenchRunInput } from '../../../src-shared/contract/bench';
import type { SavedVoice } from '../../../src-shared/contract/voices';
import { voiceDisplayName } from '../../components/voice-names';

type SavedVoiceNames = readonly Pick<SavedVoice, 'id' | 'name'>[];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number) => String(n).padStart(2, '0');

/** "Dec 7 03:40" in the machine's time zone. */
export function runTimeLabel(atMs: number): string {
  const d = new Date(atMs);
  return `${MONTHS[d.getMonth()]} ${d.getDate()} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** The config part of the name: what was measured, how long and how often, in which voice. */
export function runConfigLabel(input: BenchRunInput, savedVoices: SavedVoiceNames): string {
  const variants = input.variants.map((v) => (v.target === 'http' ? `${v.name} (HTTP)` : v.name)).join(' vs ');
  // "1 client" only for the single count 1; a list of counts ("1, 2") reads as clients
  const oneClient = input.clientCounts.length === 1 && input.clientCounts[0] === 1;
  const windowS = Number((input.windowMs / 1000).toFixed(3));
  return [
    variants,
    input.workloads.join(' + '),
    `${input.clientCounts.join(', ')} ${oneClient ? 'client' : 'clients'}`,
    `${windowS} s × ${input.numPasses}`,
    ...(input.voice ? [voiceDisplayName(input.voice, savedVoices)] : []),
  ].join(' · ');
}

export function benchRunName(run: { input: BenchRunInput; startedAtMs: number }, savedVoices: SavedVoiceNames): string {
  return `${runConfigLabel(run.input, savedVoices)} · ${runTimeLabel(run.startedAtMs)}`;
}
