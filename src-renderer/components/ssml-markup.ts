/**
 * A light reading of an SSML document's markup for the editor's visual tools: its tags with their
 * offsets and partners, the <speak> content, and the range a selection becomes so that wrapping it
 * keeps the document well formed (never cutting a tag, an entity or a word, taking in whole elements it
 * crosses, and whole text-only elements such as <sub> it sits in). Pure; the studio's parser
 * (src-main/ssml) stays the authority on validity and the tests check the results with it.
 */

export interface Tag {
  from: number;
  to: number;
  /** Lower-cased element name ('' for comments, CDATA and processing instructions); attribute values decoded. */
  name: string;
  kind: 'open' | 'close' | 'empty' | 'other';
  /** Index of the matching open/close tag; -1 for empty and other tags. */
  partner: number;
  attrs: Record<string, string>;
}

export interface Markup {
  tags: Tag[];
  /** The <speak> element's content: [contentFrom, contentTo). */
  contentFrom: number;
  contentTo: number;
}

/** Elements whose content is text only (or not spoken markup): nothing may be written inside them. */
export const OPAQUE_ELEMENTS: ReadonlySet<string> = new Set(['say-as', 'sub', 'phoneme', 'audio', 'math', 'meta', 'metadata', 'desc', 'lexicon']);

const TAG = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<\/?[A-Za-z][^<>]*>/g;
const ATTR = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ENTITIES: Record<string, string> = { quot: '"', apos: "'", lt: '<', gt: '>', amp: '&' };

/** Text with XML's five named entities and numeric references read. */
export function decodeEntities(text: string): string {
  return text.replace(/&(?:#x([0-9a-f]+)|#(\d+)|(quot|apos|lt|gt|amp));/gi, (whole, hex, dec, name) =>
    hex ? String.fromCodePoint(parseInt(hex, 16)) : dec ? String.fromCodePoint(Number(dec)) : (ENTITIES[name.toLowerCase()] ?? whole),
  );
}

function readTag(text: string, from: number): Omit<Tag, 'partner'> {
  const to = from + text.length;
  if (!/^<\/?[A-Za-z]/.test(text)) return { from, to, name: '', kind: 'other', attrs: {} };
  const name = /^<\/?([^\s/>]+)/.exec(text)![1].toLowerCase();
  if (text.startsWith('</')) return { from, to, name, kind: 'close', attrs: {} };
  const attrs: Record<string, string> = {};
  for (const m of text.matchAll(ATTR)) attrs[m[1]] = decodeEntities(m[2] ?? m[3] ?? '');
  return { from, to, name, kind: text.endsWith('/>') ? 'empty' : 'open', attrs };
}

/** The markup of `doc`, or a sentence saying why it cannot be edited visually. */
export function readMarkup(doc: string): Markup | string {
  const tags: Tag[] = [];
  const stack: number[] = [];
  for (const m of doc.matchAll(TAG)) {
    const tag: Tag = { ...readTag(m[0], m.index!), partner: -1 };
    const i = tags.push(tag) - 1;
    if (tag.kind === 'open') stack.push(i);
    if (tag.kind === 'close') {
      const open = stack.pop();
      if (open === undefined || tags[open].name !== tag.name) return `The markup is not balanced (</${tag.name}> at offset ${tag.from}); fix the problem the check shows first.`;
      tags[open].partner = i;
      tag.partner = open;
    }
  }
  if (stack.length > 0) return `<${tags[stack[stack.length - 1]].name}> is never closed; fix the problem the check shows first.`;
  const speak = tags.findIndex((t) => t.kind === 'open' && t.name === 'speak');
  if (speak < 0) return 'The document has no <speak> … </speak> root; switch to SSML or add one.';
  return { tags, contentFrom: tags[speak].to, contentTo: tags[tags[speak].partner].from };
}

/** `pos` moved out of any tag or entity it falls inside (to its start, or its end when `after`). */
function outOfToken(doc: string, m: Markup, pos: number, after: boolean): number {
  for (const t of m.tags) if (t.from < pos && pos < t.to) return after ? t.to : t.from;
  const amp = doc.lastIndexOf('&', pos - 1);
  if (amp >= 0 && pos - amp <= 10) {
    const semi = doc.indexOf(';', amp);
    if (semi >= pos && /^&#?\w+;$/.test(doc.slice(amp, semi + 1))) return after ? semi + 1 : amp;
  }
  return pos;
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}'’_-]/u;

/** `pos` moved to the start (or, when `after`, the end) of the word it falls inside: markup never splits a word. */
export function toWordEdge(doc: string, pos: number, after: boolean): number {
  let p = pos;
  if (after) while (p > 0 && p < doc.length && WORD_CHAR.test(doc[p - 1]) && WORD_CHAR.test(doc[p])) p++;
  else while (p > 0 && p < doc.length && WORD_CHAR.test(doc[p - 1]) && WORD_CHAR.test(doc[p])) p--;
  return p;
}

/** The elements (open-tag indices) whose start and end tags both enclose [from, to). */
export function enclosing(m: Markup, from: number, to: number): number[] {
  return m.tags.flatMap((t, i) => (t.kind === 'open' && t.to <= from && m.tags[t.partner].from >= to ? [i] : []));
}

/**
 * [from, to) grown until wrapping it in one element keeps the document well formed: out of tags
 * and entities, over both tags of each element it crosses, over whole text-only elements around it.
 * A sentence instead when the range does not reach into <speak>'s content.
 */
export function wrappableRange(doc: string, m: Markup, from: number, to: number): { from: number; to: number } | string {
  if (to < m.contentFrom || from > m.contentTo) return 'Select text inside <speak> … </speak>.';
  let a = toWordEdge(doc, outOfToken(doc, m, Math.max(from, m.contentFrom), false), false);
  let b = toWordEdge(doc, outOfToken(doc, m, Math.min(to, m.contentTo), true), true);
  if (b < a) b = a;
  for (let changed = true; changed; ) {
    changed = false;
    for (const t of m.tags) {
      const inside = t.from >= a && t.to <= b;
      const crossing = t.partner >= 0 && inside && (m.tags[t.partner].from < a || m.tags[t.partner].to > b);
      // a text-only element that overlaps the range without lying wholly inside it
      const opaqueAround = t.kind === 'open' && OPAQUE_ELEMENTS.has(t.name) && (a < b ? t.from < b && m.tags[t.partner].to > a : t.from < a && m.tags[t.partner].to > a) && (t.from < a || m.tags[t.partner].to > b);
      if (crossing || opaqueAround) {
        const p = m.tags[t.partner];
        const [na, nb] = [Math.min(a, t.from, p.from), Math.max(b, t.to, p.to)];
        if (na !== a || nb !== b) [a, b, changed] = [na, nb, true];
      }
    }
  }
  return { from: a, to: b };
}

/** Where an empty element (a <break/>) may go at or just after `pos`: outside tags, entities and text-only elements. */
export function insertionPoint(doc: string, m: Markup, pos: number): number {
  let at = toWordEdge(doc, outOfToken(doc, m, Math.min(m.contentTo, Math.max(m.contentFrom, pos)), true), true);
  for (const i of enclosing(m, at, at)) if (OPAQUE_ELEMENTS.has(m.tags[i].name)) at = Math.max(at, m.tags[m.tags[i].partner].to);
  return at;
}
