/**
 * What the vendor corpus test reads documents with: the nine Qwen3-TTS CustomVoice speakers
 * (names, genders from their descriptions, native languages) and the ten languages, as the
 * engine host passes them, and a compact one-line form of each segment for golden lists.
 */
import type { SsmlDialect } from '../../../src-shared/synthesis';
import type { SsmlSegment } from '../segments';
import { ssmlOptionsForRequest, type SsmlOptionsInput } from '../ssml-options';
import { QWEN_LANGUAGES } from '../languages';

export const CORPUS_VOICES = [
  { name: 'vivian', description: 'Young woman with a bright voice and a slight edge', nativeLanguage: 'chinese' },
  { name: 'serena', description: 'Young woman, soft and warm', nativeLanguage: 'chinese' },
  { name: 'uncle_fu', description: 'Older man with a deep, mellow tone', nativeLanguage: 'chinese' },
  { name: 'dylan', description: 'Young man from Beijing, speaks with the Beijing accent', nativeLanguage: 'chinese' },
  { name: 'eric', description: 'Lively man from Chengdu, a little husky, Sichuan accent', nativeLanguage: 'chinese' },
  { name: 'ryan', description: 'Energetic man with a strong sense of rhythm', nativeLanguage: 'english' },
  { name: 'aiden', description: 'Cheerful American man with a clear, open sound', nativeLanguage: 'english' },
  { name: 'ono_anna', description: 'Playful young Japanese woman', nativeLanguage: 'japanese' },
  { name: 'sohee', description: 'Korean woman with a warm, friendly voice', nativeLanguage: 'korean' },
];

export function corpusOptions(lenient: boolean, dialect: SsmlDialect = 'auto'): SsmlOptionsInput {
  return ssmlOptionsForRequest({ dialect, lenient }, { voices: CORPUS_VOICES, languages: [...QWEN_LANGUAGES], requestLanguage: 'auto' });
}

/** One line per segment; a turn prints only its non-default fields, so every field is pinned. */
export function describeSegments(segments: readonly SsmlSegment[]): string[] {
  return segments.map((s) => {
    switch (s.kind) {
      case 'turn': {
        const extra = [
          s.voice !== null ? `voice=${s.voice}` : '',
          s.voiceDescription !== undefined ? `design="${s.voiceDescription}"` : '',
          s.language !== null ? `lang=${s.language}` : '',
          s.rate !== 1 ? `rate=${s.rate}` : '',
          s.pitchSemitones !== 0 ? `pitch=${s.pitchSemitones}` : '',
          s.volumeGainDb !== 0 ? `gain=${s.volumeGainDb}` : '',
        ].filter(Boolean);
        return [`turn${s.index} "${s.text}"`, ...extra].join(' ');
      }
      case 'break':
        return `break ${s.durationMs}ms`;
      case 'mark':
        return s.turnIndex === null ? `mark ${s.name}` : `mark ${s.name} @turn${s.turnIndex}+${s.charOffset}`;
      case 'audio':
        return `audio ${s.src} fallback="${s.fallbackText}"`;
    }
  });
}

export type CorpusOutcome = { turns: string[]; warnings: string[] } | { error: string };

export interface CorpusDocument {
  id: string;
  /** Where the document is published (URL, and the repository file and commit it was read from). */
  source: string;
  /** What was changed or assembled, when the document is not copied whole. */
  note?: string;
  /** The vendor's dialect, as a user pasting it would set it. */
  dialect: Exclude<SsmlDialect, 'auto'>;
  /** What 'auto' detects from the document's own markup. */
  autoDialect: Exclude<SsmlDialect, 'auto'>;
  ssml: string;
  strict: CorpusOutcome;
  /** Absent: lenient reading gives what strict does. */
  lenient?: CorpusOutcome;
}

/** What the document reads to in lenient mode (written only where it differs from strict). */
export function lenientOutcome(doc: CorpusDocument): CorpusOutcome {
  return doc.lenient ?? doc.strict;
}
