/**
 * The <say-as> element in a dialect: its attributes checked when it opens (a value or format the
 * dialect does not document, Google's detail and language) and its text read when it closes.
 * Problems go to the parser's Reporter (strict: error at the element; lenient: warning, text as
 * written). Bleeping (expletive) stays with the parser, which owns the breaks. Pure.
 */
import { DIALECT_LABELS, type ResolvedDialect } from '../dialects';
import type { Reporter } from '../element-context';
import { languageFromTag } from '../languages';
import { expandSayAs, type SayAsLanguage } from '../say-as';
import { SAY_AS_ALL, SAY_AS_BLEEPED, SAY_AS_VALUES, checkFormat, dialectsWith } from './values';

const SPELLING = ['characters', 'spell-out', 'verbatim', 'digits', 'number_digit'];

export function checkSayAs(attrs: Record<string, string>, dialect: ResolvedDialect, report: Reporter): void {
  const kind = attrs['interpret-as'];
  const label = DIALECT_LABELS[dialect];
  if (!SAY_AS_ALL.includes(kind)) {
    report.reject('interpret-as', kind, SAY_AS_VALUES[dialect], `interpret-as '${kind}' is not supported in ${label}; use ${SAY_AS_VALUES[dialect].join(', ')} (lenient mode reads the text as written)`);
    return;
  }
  if (!SAY_AS_VALUES[dialect].includes(kind)) {
    const owners = dialectsWith(kind);
    const lenient = (SAY_AS_BLEEPED as readonly string[]).includes(kind) ? 'silences it' : 'reads the text as written';
    report.reject('interpret-as', kind, SAY_AS_VALUES[dialect], `interpret-as '${kind}' is not documented by ${label} (${owners.map((d) => DIALECT_LABELS[d]).join(' and ')} ${owners.length > 1 ? 'document' : 'documents'} it); set the SSML dialect to ${owners[0]} or auto, or use ${SAY_AS_VALUES[dialect].join(', ')} (lenient mode ${lenient})`);
    return;
  }
  const format = attrs.format;
  const allowed = format !== undefined ? checkFormat(kind, format, dialect) : null;
  if (allowed !== null) {
    const offer = allowed.length > 0 ? `use ${allowed.join(', ')}` : `${label} documents no format for it; remove the attribute`;
    report.reject('format', format!, allowed, `format '${format}' is not a ${kind} format in ${label}; ${offer} (lenient mode reads the text as written)`);
  }
  if (attrs.detail !== undefined && dialect === 'google' && !['1', '2'].includes(attrs.detail)) {
    report.reject('detail', attrs.detail, ['1', '2'], `detail '${attrs.detail}' is not one of Google's date details; use 1 ("the tenth of September, 1960") or 2 ("September tenth, 1960")`);
  }
  if (attrs.language !== undefined && languageFromTag(attrs.language) === null) {
    report.reject('language', attrs.language, ['en-US', 'zh-CN'], `'${attrs.language}' is not a language tag the studio reads; use a tag such as en-US or zh-CN`);
  }
}

/**
 * The spoken text of a closed <say-as>. languageOf(own) resolves its language: own is the
 * language its `language` attribute names (Google), undefined when it has none.
 */
export function readSayAs(attrs: Record<string, string>, text: string, dialect: ResolvedDialect, languageOf: (own: string | null | undefined) => SayAsLanguage | null, contextLanguage: string | null, report: Reporter): string {
  const kind = attrs['interpret-as'];
  const format = attrs.format ?? null;
  // A value or format the dialect does not document was reported on open: read as written, never guessed.
  if (!SAY_AS_VALUES[dialect].includes(kind) || (format !== null && checkFormat(kind, format, dialect) !== null)) return text;
  const own = attrs.language !== undefined ? languageFromTag(attrs.language) : undefined;
  const language = languageOf(own);
  if (language === null) {
    // Spelling needs no number words: letters and digits one by one, which the model reads in its language.
    if (SPELLING.includes(kind)) return [...text].filter((c) => /\S/.test(c)).map((c) => c.toUpperCase()).join(' ');
    if (kind === 'name') return text;
    report.warn('interpret-as', `say-as ${kind} is implemented for English and Chinese only; the text is read as written in ${own ?? contextLanguage}`);
    return text;
  }
  const detail = dialect === 'google' || dialect === 'ssml11' ? attrs.detail ?? null : null;
  const expanded = expandSayAs(kind, { format, detail, dialect }, text, language);
  if (expanded === null) {
    report.reject('interpret-as', text.trim(), [kind], `text '${text.trim()}' cannot be read as ${kind}${format ? ` (format ${format})` : ''}${kind === 'date' ? ' (is it a real calendar date?)' : ''}; fix the text or the interpret-as value (lenient mode reads it as written)`);
    return text;
  }
  return expanded;
}
