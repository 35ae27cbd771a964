/**
 * The Timeline's waveform read by speaker: each turn's region is named after the voice of its
 * chosen take and coloured by that voice (one colour per speaker, in order of first appearance,
 * so a document's speakers keep their colours across generations and re-opens); fit-to-width
 * zoom; and whether the audio is out of date with the document. Pure.
 */
import type { ProjectTurn } from '../../../src-shared/contract/projects';
import { chosenTake } from '../../components/compose-timeline';

/** Distinct, light region fills; a document with more speakers reuses them in order. */
export const SPEAKER_COLORS = [
  'rgba(47, 111, 237, 0.22)',
  'rgba(237, 108, 2, 0.22)',
  'rgba(46, 125, 50, 0.22)',
  'rgba(156, 39, 176, 0.22)',
  'rgba(0, 131, 143, 0.22)',
  'rgba(198, 40, 40, 0.22)',
  'rgba(121, 85, 72, 0.22)',
  'rgba(96, 125, 139, 0.22)',
] as const;

/** The voice a turn is heard in: its chosen take's, else the clip's voice for that turn, else `fallback`. */
export function turnVoice(turn: ProjectTurn, spanVoice: string | undefined, fallback: string): string {
  return chosenTake(turn)?.voice ?? spanVoice ?? fallback;
}

/** Speaker → colour, by order of first appearance. */
export function speakerColors(speakers: readonly string[]): Map<string, string> {
  const colors = new Map<string, string>();
  for (const s of speakers) if (!colors.has(s)) colors.set(s, SPEAKER_COLORS[colors.size % SPEAKER_COLORS.length]);
  return colors;
}

export interface SpeakerRegion {
  id: string;
  startS: number;
  endS: number;
  label: string;
  title: string;
  color: string;
  speaker: string;
}

/**
 * One region per composed turn: labelled with the speaker's display name, coloured by speaker;
 * `title` adds the turn number for the tooltip.
 */
export function speakerRegions(
  regions: readonly { turnIndex: number; startSample: number; endSample: number }[],
  sampleRateHz: number,
  voiceOfTurn: (turnIndex: number) => string,
  displayName: (voice: string) => string,
): SpeakerRegion[] {
  const ordered = [...regions].sort((a, b) => a.startSample - b.startSample);
  const voices = ordered.map((r) => voiceOfTurn(r.turnIndex));
  const colors = speakerColors(voices);
  return ordered.map((r, i) => ({
    id: `turn-${r.turnIndex}`,
    startS: r.startSample / sampleRateHz,
    endS: r.endSample / sampleRateHz,
    label: displayName(voices[i]),
    title: `Turn ${r.turnIndex + 1} · ${displayName(voices[i])}`,
    color: colors.get(voices[i])!,
    speaker: voices[i],
  }));
}

/** The zoom that shows `durationS` in `widthPx`, within the zoom limits. */
export function fitZoomPxPerS(widthPx: number, durationS: number, limits: { min: number; max: number }): number {
  if (!(widthPx > 0) || !(durationS > 0)) return limits.min;
  return Math.max(limits.min, Math.min(limits.max, widthPx / durationS));
}

/**
 * Why the timeline's audio no longer matches the editor, or null: the document's text or format
 * changed since the base clip was generated from it. Whitespace at the ends does not count.
 */
export function staleAudioReason(editor: { text: string; format: 'text' | 'ssml' }, made: { input: string; inputFormat: 'text' | 'ssml' } | undefined): string | null {
  if (!made) return null;
  if (made.inputFormat !== editor.format) return `The document is now ${editor.format === 'ssml' ? 'SSML' : 'plain text'}; this audio was made from ${made.inputFormat === 'ssml' ? 'SSML' : 'plain text'}. Generate again to update it.`;
  if (made.input.trim() !== editor.text.trim()) return 'The document changed after this audio was made. Generate again to update it (or Undo the text change).';
  return null;
}
