/**
 * A long document split into render parts: chapters (a folder's text files in name order, or
 * '# ' headings in one text file) of paragraphs (blank-line separated; longer than maxPartChars
 * split at sentence ends), or an SSML file's top-level <p> elements, each re-wrapped in the root
 * <speak>. Each part's id hashes what its audio depends on — text, voice, seed, settings, model and
 * the content (not the name) of the saved voices it speaks in — so a part is rendered once, and a
 * voice re-made under the same name renders again.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { StudioError } from '../../src-shared/errors';
import type { SamplingParams } from '../../src-shared/synthesis';
import type { SavedVoiceConditioning } from '../../src-shared/contract/voices';

/** What every part of one render shares. */
export interface RenderSettings {
  voice: string;
  language: string;
  seed: number;
  params?: Partial<SamplingParams>;
  /** The model id the parts are rendered with (a part rendered by another model is another part). */
  model: string;
}

/** One job: a paragraph (or a few sentences of one) of one chapter. */
export interface RenderPart {
  /** sha256 of content + format + settings + saved voices (32 hex digits): the BullMQ job id and the part's file name. */
  id: string;
  chapter: number;
  chapterTitle: string;
  /** Position in the whole work (assembly order). */
  index: number;
  input: string;
  inputFormat: 'text' | 'ssml';
}

export interface RenderPlan {
  settings: RenderSettings;
  chapters: { title: string; numParts: number }[];
  parts: RenderPart[];
}

/** Bounds of the split; defaultSplitConfig() holds the defaults. */
export interface SplitConfig {
  /** A paragraph longer than this is split at sentence ends (one sentence longer stays whole). */
  maxPartChars: number;
}

export function defaultSplitConfig(): SplitConfig {
  return { maxPartChars: 600 };
}

/** The saved voices a part names (none by default): the submitter's voice library, read per part. */
export type SavedVoicesForPart = (part: Pick<RenderPart, 'input' | 'inputFormat'>) => SavedVoiceConditioning[];

/**
 * What a part file holds; a new value makes every part id new, so parts of an older layout are
 * never mixed into a render. 2: the model's samples, not loudness-normalised (the assembly is, once).
 */
const PART_FORMAT_VERSION = 2;

/**
 * The id of a part: its text and format, the render's settings, and each saved voice it speaks in
 * whole (id, name, and the conditioning: clone prompt embedding and reference codes, or design text).
 */
export function partId(input: string, inputFormat: string, settings: RenderSettings, savedVoices: readonly SavedVoiceConditioning[] = []): string {
  const voices = [...savedVoices].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const key = JSON.stringify({ v: PART_FORMAT_VERSION, input, inputFormat, voice: settings.voice, language: settings.language, seed: settings.seed, params: settings.params ?? {}, model: settings.model, voices });
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}

/** Sentences end at . ! ? (and their CJK forms) followed by space or the end; the split keeps the punctuation. */
export function splitSentences(paragraph: string, maxChars: number): string[] {
  if (paragraph.length <= maxChars) return [paragraph];
  const sentences = paragraph.match(/[^.!?。！？]+(?:[.!?。！？]+["')\]]*|$)\s*/gu)?.map((s) => s.trim()).filter(Boolean) ?? [paragraph];
  const parts: string[] = [];
  let current = '';
  for (const s of sentences) {
    if (current && current.length + 1 + s.length > maxChars) {
      parts.push(current);
      current = s;
    } else current = current ? `${current} ${s}` : s;
  }
  if (current) parts.push(current);
  return parts;
}

/** Chapters of one text: '# Title' lines start a chapter; paragraphs are separated by blank lines. */
export function textChapters(text: string, fallbackTitle: string): { title: string; paragraphs: string[] }[] {
  const chapters: { title: string; paragraphs: string[] }[] = [];
  let current = { title: fallbackTitle, paragraphs: [] as string[] };
  let lines: string[] = [];
  const flush = () => {
    const p = lines.join(' ').replace(/\s+/g, ' ').trim();
    if (p) current.paragraphs.push(p);
    lines = [];
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const heading = /^#+\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      if (current.paragraphs.length > 0) chapters.push(current);
      current = { title: heading[1].trim(), paragraphs: [] };
    } else if (line.trim() === '') flush();
    else lines.push(line.trim());
  }
  flush();
  if (current.paragraphs.length > 0) chapters.push(current);
  return chapters;
}

/**
 * An SSML document's top-level <p> elements as separate documents, each in a copy of the root
 * <speak> start tag; breaks and marks between them go with the next. Anything else at the top
 * level (text, a <voice> around several paragraphs) keeps the document whole: one part.
 */
export function splitSsml(source: string): string[] {
  const root = /^\s*(?:<\?xml[^>]*\?>\s*)?(<speak\b[^>]*>)([\s\S]*)<\/speak>\s*$/.exec(source);
  if (!root) return [source];
  const [, open, body] = root;
  const chunks: string[] = [];
  let depth = 0;
  let start = 0;
  let sawParagraph = false;
  const tag = /<!--[\s\S]*?-->|<(\/?)([A-Za-z][\w:.-]*)\b[^>]*?(\/?)>/g;
  let last = 0;
  for (let m = tag.exec(body); m; m = tag.exec(body)) {
    if (depth === 0 && body.slice(last, m.index).trim() !== '') return [source]; // bare text at the top
    last = m.index + m[0].length;
    if (m[0].startsWith('<!--')) continue;
    const [, closing, name, selfClosing] = m;
    if (depth === 0 && !closing && !selfClosing && name !== 'p') return [source];
    if (closing) depth--;
    else if (!selfClosing) depth++;
    if (depth < 0) return [source];
    if (depth === 0 && closing && name === 'p') {
      chunks.push(body.slice(start, last).trim());
      start = last;
      sawParagraph = true;
    }
  }
  if (depth !== 0 || body.slice(last).trim().replace(/^(<[^>]*\/>\s*)*/, '') !== '') return [source];
  if (!sawParagraph) return [source];
  const tail = body.slice(start).trim();
  if (tail && chunks.length > 0) chunks[chunks.length - 1] += tail;
  return chunks.map((c) => `${open}${c}</speak>`);
}

/**
 * A file or folder: its chapters and parts, in order. `savedVoicesFor`: the saved voices each part
 * speaks in (their content goes into its id); none by default.
 */
export function planRender(documentPath: string, settings: RenderSettings, options: { split?: SplitConfig; savedVoicesFor?: SavedVoicesForPart } = {}): RenderPlan {
  const config = options.split ?? defaultSplitConfig();
  let stat: fs.Stats;
  try {
    stat = fs.statSync(documentPath);
  } catch {
    throw new StudioError('not-found', `${documentPath} does not exist; give a text file, an SSML file or a folder of text files`, { field: 'document' });
  }
  const files = stat.isDirectory()
    ? fs.readdirSync(documentPath).filter((f) => /\.(txt|md|ssml|xml)$/i.test(f)).sort().map((f) => path.join(documentPath, f))
    : [documentPath];
  if (files.length === 0) throw new StudioError('invalid-argument', `${documentPath} holds no .txt, .md, .ssml or .xml files`, { field: 'document' });
  const chapters: { title: string; items: { input: string; inputFormat: 'text' | 'ssml' }[] }[] = [];
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const title = path.basename(file).replace(/\.[^.]+$/, '');
    if (/\.(ssml|xml)$/i.test(file) || /^\s*(<\?xml[^>]*\?>\s*)?<speak\b/.test(text)) {
      chapters.push({ title, items: splitSsml(text).map((input) => ({ input, inputFormat: 'ssml' as const })) });
      continue;
    }
    for (const c of textChapters(text, title)) {
      chapters.push({ title: c.title, items: c.paragraphs.flatMap((p) => splitSentences(p, config.maxPartChars)).map((input) => ({ input, inputFormat: 'text' as const })) });
    }
  }
  const parts: RenderPart[] = [];
  chapters.forEach((c, chapter) => {
    for (const item of c.items) parts.push({ id: partId(item.input, item.inputFormat, settings, options.savedVoicesFor?.(item)), chapter, chapterTitle: c.title, index: parts.length, ...item });
  });
  if (parts.length === 0) throw new StudioError('invalid-argument', `${documentPath} has no text to render`, { field: 'document' });
  return { settings, chapters: chapters.map((c) => ({ title: c.title, numParts: c.items.length })), parts };
}
