/**
 * Which SSML 1.1 elements the studio knows, what each may contain and which attributes it
 * takes. `content` drives the parser: mixed (text and elements), text (text only, collected
 * and transformed on close), empty, fallback (<audio>: text kept as fallback), or hidden
 * (metadata-like: accepted, nothing spoken). xmlns declarations are allowed everywhere.
 */

export type ElementContent = 'mixed' | 'text' | 'empty' | 'fallback' | 'hidden';

export interface ElementRule {
  content: ElementContent;
  attributes: readonly string[];
  /** Accepted SSML attributes the studio does not act on: a warning, never an error. */
  ignoredAttributes?: readonly string[];
  required?: readonly string[];
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
  voice: { content: 'mixed', attributes: ['name', 'description', 'languages', 'xml:lang'], ignoredAttributes: ['gender', 'age', 'variant', 'required', 'ordering', 'onvoicefailure'] },
  prosody: { content: 'mixed', attributes: ['rate', 'pitch', 'volume'], ignoredAttributes: ['contour', 'range', 'duration'] },
  emphasis: { content: 'mixed', attributes: ['level'] },
  'say-as': { content: 'text', attributes: ['interpret-as', 'format'], ignoredAttributes: ['detail'], required: ['interpret-as'] },
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
};

export const KNOWN_ELEMENTS = Object.keys(ELEMENT_RULES);

export function isNamespaceDeclaration(attribute: string): boolean {
  return attribute === 'xmlns' || attribute.startsWith('xmlns:');
}
