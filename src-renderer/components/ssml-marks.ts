/**
 * Marks in the SSML editor for what the visual tools wrote: tuned words (<prosody>, <emphasis>)
 * tinted with a badge that says the change, pauses (<break>) as a badge with their length, and
 * pronunciations (<sub>, <phoneme>) underlined with what is said. A CodeMirror extension over the
 * markup reading of ssml-markup.ts; it changes no text. A document whose markup does not balance
 * shows no marks (the live check says why).
 */
import { StateField, type EditorState, type Range } from '@codemirror/state';
import { Decoration, EditorView, WidgetType, type DecorationSet } from '@codemirror/view';
import { readMarkup, type Tag } from './ssml-markup';

export type MarkKind = 'prosody' | 'emphasis' | 'break' | 'sub' | 'phoneme';

class BadgeWidget extends WidgetType {
  constructor(
    readonly text: string,
    readonly kind: MarkKind,
  ) {
    super();
  }
  override eq(other: BadgeWidget): boolean {
    return other.text === this.text && other.kind === this.kind;
  }
  override toDOM(): HTMLElement {
    const span = document.createElement('span');
    span.className = `cm-mark-badge cm-mark-badge-${this.kind}`;
    span.dataset.testid = 'mark-badge';
    span.dataset.mark = this.kind;
    // drawn by CSS from the attribute, so the editor's text (and what tests read of it) stays the document
    span.dataset.label = this.text;
    span.title = this.text;
    span.setAttribute('aria-hidden', 'true');
    return span;
  }
}

/** What a mark's badge says, or null for elements the marks leave alone. */
export function badgeText(tag: Pick<Tag, 'name' | 'attrs'>): string | null {
  const a = tag.attrs;
  switch (tag.name) {
    case 'prosody':
      return [a.rate && `rate ${a.rate}`, a.pitch && `pitch ${a.pitch}`, a.volume && `vol ${a.volume}`].filter(Boolean).join(' · ') || 'prosody';
    case 'emphasis':
      return `emphasis ${a.level ?? 'moderate'}`;
    case 'break':
      return `pause ${a.time ?? a.strength ?? 'medium'}`;
    case 'sub':
      return `says “${a.alias ?? ''}”`;
    case 'phoneme':
      return `/${a.ph ?? ''}/`;
    default:
      return null;
  }
}

function marksOf(state: EditorState): DecorationSet {
  const m = readMarkup(state.doc.toString());
  if (typeof m === 'string') return Decoration.none;
  const ranges: Range<Decoration>[] = [];
  for (const t of m.tags) {
    const text = badgeText(t);
    if (text === null || t.kind === 'close' || t.kind === 'other') continue;
    const kind = t.name as MarkKind;
    const badge = Decoration.widget({ widget: new BadgeWidget(text, kind), side: 1 });
    if (t.kind === 'empty') {
      if (kind === 'break') ranges.push(badge.range(t.to));
      continue;
    }
    const close = m.tags[t.partner];
    if (close.from > t.to) ranges.push(Decoration.mark({ class: `cm-mark cm-mark-${kind}`, attributes: { title: text, 'data-mark': kind } }).range(t.to, close.from));
    ranges.push(badge.range(t.to));
  }
  return Decoration.set(ranges, true);
}

const marksField = StateField.define<DecorationSet>({
  create: marksOf,
  update: (value, tr) => (tr.docChanged ? marksOf(tr.state) : value),
  provide: (f) => EditorView.decorations.from(f),
});

const marksTheme = EditorView.baseTheme({
  '.cm-mark-prosody': { backgroundColor: 'rgba(37, 99, 235, 0.12)', borderBottom: '2px solid rgba(37, 99, 235, 0.7)' },
  '.cm-mark-emphasis': { backgroundColor: 'rgba(217, 119, 6, 0.14)', borderBottom: '2px solid rgba(217, 119, 6, 0.8)' },
  '.cm-mark-sub, .cm-mark-phoneme': { borderBottom: '2px dotted rgba(5, 150, 105, 0.9)' },
  '.cm-mark-badge::after': { content: 'attr(data-label)' },
  '.cm-mark-badge': { fontSize: '0.75em', fontFamily: 'system-ui, sans-serif', padding: '0 4px', margin: '0 2px', borderRadius: '8px', verticalAlign: 'super', whiteSpace: 'nowrap' },
  '&light .cm-mark-badge': { backgroundColor: '#e8eefc', color: '#1e3a8a' },
  '&dark .cm-mark-badge': { backgroundColor: '#1e293b', color: '#bfdbfe' },
  '&light .cm-mark-badge-break': { backgroundColor: '#f1f5f9', color: '#334155' },
  '&dark .cm-mark-badge-break': { backgroundColor: '#334155', color: '#e2e8f0' },
  '&light .cm-mark-badge-sub, &light .cm-mark-badge-phoneme': { backgroundColor: '#e7f6ef', color: '#065f46' },
  '&dark .cm-mark-badge-sub, &dark .cm-mark-badge-phoneme': { backgroundColor: '#064e3b', color: '#d1fae5' },
});

/** The editor extension: marks follow every change of the document. */
export function ssmlMarks() {
  return [marksField, marksTheme];
}
