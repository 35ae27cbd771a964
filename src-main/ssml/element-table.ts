/**
 * Which elements the studio knows, in which dialect, what each may contain and which attributes
 * it takes. `content` drives the parser: mixed (text and elements), text (text only, collected
 * and transformed on close), empty, fallback (<audio>: text kept as fallback), or hidden
 * (metadata-like: accepted, nothing spoken). `dropped` marks vendor elements whose effect the
 * model cannot produce: their text is spoken and a warning names them. xmlns declarations are
 * allowed everywhere.
 */
import type { ResolvedDialect } from './dialects';

export type ElementContent = 'mixed' | 'text' | 'empty' | 'fallback' | 'hidden';

export interface ElementRule {
  content: ElementContent;
  attributes: readonly string[];
  /** Accepted attributes the studio does not act on: a warning, never an error. */
  ignoredAttributes?: readonly string[];
  required?: readonly string[];
  /** The dialects the element belongs to; absent: all (SSML 1.1). */
  dialects?: readonly ResolvedDialect[];
  /** Extra attributes one dialect adds to an SSML 1.1 element (accepted, acted on). */
  dialectAttributes?: Partial<Record<ResolvedDialect, readonly string[]>>;
  /** Extra attributes one dialect adds that have no effect here (warning). */
  dialectIgnoredAttributes?: Partial<Record<ResolvedDialect, readonly string[]>>;
  /** A vendor effect the model cannot produce: what is lost, for the warning. */
  dropped?: string;
}

const LANG = ['xml:lang', 'onlangfailure'];

export const ELEMENT_RULES: Readonly<Record<string, ElementRule>> = {
  speak: { content: 'mixed', attributes: ['version', 'xml:lang', 'xml:base', 'xsi:schemaLocation', 'onlangfailure'] },
  p: { content: 'mixed', attributes: LANG },
  s: { content: 'mixed', attributes: LANG },
  lang: { content: 'mixed', attributes: LANG, required: ['xml:lang'] },
  token: { content: 'mixed', attributes: [...LANG, 'role'] },
  w: { content: 'mixed', attributes: [...LANG, 'role'] },
  // description is the studio's extension: a VoiceDesign prompt instead of a speaker name.
  voice: {
    content: 'mixed',
    attributes: ['name', 'description', 'languages', 'xml:lang', 'gender'],
    ignoredAttributes: ['age', 'variant', 'required', 'ordering', 'onvoicefailure'],
    dialectAttributes: { google: ['language'] },
    dialectIgnoredAttributes: { azure: ['effect', 'xml:gender'] },
  },
  prosody: { content: 'mixed', attributes: ['rate', 'pitch', 'volume'], ignoredAttributes: ['contour', 'range', 'duration'], dialectIgnoredAttributes: { polly: ['amazon:max-duration'] } },
  emphasis: { content: 'mixed', attributes: ['level'] },
  'say-as': { content: 'text', attributes: ['interpret-as', 'format'], ignoredAttributes: ['detail'], required: ['interpret-as'], dialectAttributes: { google: ['language', 'detail'], ssml11: ['detail'] }, dialectIgnoredAttributes: { google: ['google:style'] } },
  sub: { content: 'text', attributes: ['alias'], required: ['alias'] },
  phoneme: { content: 'text', attributes: ['alphabet', 'ph'], required: ['ph'] },
  break: { content: 'empty', attributes: ['time', 'strength'] },
  mark: { content: 'empty', attributes: ['name'], required: ['name'] },
  audio: { content: 'fallback', attributes: ['src'], ignoredAttributes: ['fetchtimeout', 'fetchhint', 'maxage', 'maxstale', 'clipBegin', 'clipEnd', 'repeatCount', 'repeatDur', 'soundLevel', 'speed'], required: ['src'] },
  lookup: { content: 'mixed', attributes: ['ref'] },
  meta: { content: 'hidden', attributes: ['name', 'content', 'http-equiv'] },
  metadata: { content: 'hidden', attributes: [] },
  desc: { content: 'hidden', attributes: ['xml:lang'] },
  lexicon: { content: 'hidden', attributes: ['uri', 'xml:id', 'type', 'fetchtimeout', 'fetchhint', 'maxage', 'maxstale'] },

  // Azure (learn.microsoft.com/azure/ai-services/speech-service/speech-synthesis-markup-*)
  bookmark: { content: 'empty', attributes: ['mark'], required: ['mark'], dialects: ['azure'] },
  'mstts:express-as': { content: 'mixed', attributes: ['style', 'styledegree', 'role'], dialects: ['azure'], dropped: 'speaking styles and roles' },
  'mstts:silence': { content: 'empty', attributes: ['type', 'value'], dialects: ['azure'], dropped: 'automatic silence around sentences' },
  'mstts:backgroundaudio': { content: 'empty', attributes: ['src', 'volume', 'fadein', 'fadeout'], dialects: ['azure'], dropped: 'background audio' },
  'mstts:audioduration': { content: 'empty', attributes: ['value'], dialects: ['azure'], dropped: 'a target audio duration' },
  'mstts:viseme': { content: 'empty', attributes: ['type'], dialects: ['azure'], dropped: 'viseme output' },
  'mstts:ttsembedding': { content: 'mixed', attributes: ['speakerProfileId'], dialects: ['azure'], dropped: 'personal voice profiles' },
  'mstts:voiceconversion': { content: 'empty', attributes: ['url'], dialects: ['azure'], dropped: 'voice conversion' },
  'mstts:dialog': { content: 'mixed', attributes: [], dialects: ['azure'] },
  'mstts:turn': { content: 'mixed', attributes: ['speaker'], required: ['speaker'], dialects: ['azure'] },
  // MathML read aloud (speech-synthesis-markup-pronunciation#reading-mathematical-expressions-with-mathml); its children are math/math-tree.ts's.
  math: { content: 'mixed', attributes: ['display', 'alttext', 'mathvariant', 'mathsize', 'dir', 'id', 'class', 'style', 'overflow', 'mode'], dialects: ['azure'] },

  // Amazon Polly (docs.aws.amazon.com/polly/latest/dg/supportedtags.html)
  'amazon:effect': { content: 'mixed', attributes: ['name', 'phonation', 'vocal-tract-length'], dialects: ['polly'], dropped: 'voice effects (whispering, soft phonation, timbre, dynamic range compression)' },
  'amazon:auto-breaths': { content: 'mixed', attributes: ['volume', 'frequency', 'duration'], dialects: ['polly'], dropped: 'breathing sounds' },
  'amazon:breath': { content: 'empty', attributes: ['duration', 'volume'], dialects: ['polly'], dropped: 'breathing sounds' },
  'amazon:domain': { content: 'mixed', attributes: ['name'], dialects: ['polly'], dropped: 'speaking styles (newscaster, conversational)' },
  'amazon:emotion': { content: 'mixed', attributes: ['name', 'intensity'], dialects: ['polly'], dropped: 'emotions' },

  // Google Cloud TTS (cloud.google.com/text-to-speech/docs/ssml)
  par: { content: 'mixed', attributes: [], dialects: ['google'] },
  seq: { content: 'mixed', attributes: [], dialects: ['google'] },
  media: { content: 'mixed', attributes: ['xml:id', 'begin', 'end', 'repeatCount', 'repeatDur', 'soundLevel', 'fadeInDur', 'fadeOutDur'], dialects: ['google'] },
  'google:style': { content: 'mixed', attributes: ['name'], dialects: ['google'], dropped: 'speaking styles' },
};

export function elementsOf(dialect: ResolvedDialect): string[] {
  return Object.entries(ELEMENT_RULES)
    .filter(([, rule]) => !rule.dialects || rule.dialects.includes(dialect))
    .map(([name]) => name);
}

export function attributesOf(rule: ElementRule, dialect: ResolvedDialect): { acted: readonly string[]; ignored: readonly string[] } {
  return {
    acted: [...rule.attributes, ...(rule.dialectAttributes?.[dialect] ?? [])],
    ignored: [...(rule.ignoredAttributes ?? []), ...(rule.dialectIgnoredAttributes?.[dialect] ?? [])],
  };
}

export function isNamespaceDeclaration(attribute: string): boolean {
  return attribute === 'xmlns' || attribute.startsWith('xmlns:');
}
