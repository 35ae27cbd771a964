/**
 * Adapter from the SSML segment list to renderTimeline's items: the caller supplies each
 * turn's synthesised PCM and each <audio> file's decoded PCM; marks inside a turn become a
 * fraction of that turn (character offset / text length). Pure; no loading here.
 */
import { StudioError } from '../../src-shared/errors';
import type { SsmlSegment } from '../ssml/segments';
import type { TimelineItem } from './pipeline';

export interface SegmentAudio {
  /** PCM per turn index. */
  turns: ReadonlyMap<number, { pcm: Float32Array; sampleRateHz: number }>;
  /** Decoded PCM per <audio src>; a missing src uses the turn synthesised from its fallback, if any. */
  audio: ReadonlyMap<string, { pcm: Float32Array; sampleRateHz: number }>;
  /** The request's voice and language, for turns whose voice/language is null. */
  defaultVoice: string;
  defaultLanguage: string;
}

export function timelineFromSegments(segments: readonly SsmlSegment[], clips: SegmentAudio): TimelineItem[] {
  const textLengths = new Map<number, number>();
  const items: TimelineItem[] = [];
  for (const segment of segments) {
    switch (segment.kind) {
      case 'turn': {
        const clip = clips.turns.get(segment.index);
        if (!clip) throw new StudioError('internal', `turn ${segment.index} has no synthesised audio; synthesise every turn before rendering`, { turnIndex: segment.index });
        textLengths.set(segment.index, segment.text.length);
        items.push({ kind: 'turn', turnIndex: segment.index, voice: segment.voice ?? (segment.voiceDescription !== undefined ? 'voice-design' : clips.defaultVoice), language: segment.language ?? clips.defaultLanguage, pcm: clip.pcm, sampleRateHz: clip.sampleRateHz, rate: segment.rate, pitchSemitones: segment.pitchSemitones, gainDb: segment.volumeGainDb });
        break;
      }
      case 'break':
        items.push({ kind: 'break', durationMs: segment.durationMs });
        break;
      case 'mark': {
        const length = segment.turnIndex === null ? 0 : textLengths.get(segment.turnIndex) ?? 0;
        items.push({ kind: 'mark', name: segment.name, turnIndex: segment.turnIndex, turnFraction: length > 0 ? segment.charOffset / length : 0 });
        break;
      }
      case 'audio': {
        const clip = clips.audio.get(segment.src);
        if (clip) items.push({ kind: 'audio', pcm: clip.pcm, sampleRateHz: clip.sampleRateHz });
        break;
      }
    }
  }
  return items;
}
