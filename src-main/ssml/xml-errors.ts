/**
 * Turns the XML layer's (saxes) well-formedness errors into messages that name the offending
 * token and its real position. saxes reports where it noticed the problem, which for a bare '&'
 * is the end of the document ("unclosed tag"); the source between the last complete XML event
 * and that point holds the real culprit, so this module looks there. It classifies, it does not
 * parse: every error still comes from saxes.
 */
import type { SourcePosition, SsmlProblem } from './source-positions';

export interface OpenElement {
  name: string;
  position: SourcePosition;
}

export interface XmlErrorContext {
  source: string;
  /** saxes' message without its "line:column: " prefix. */
  message: string;
  /** Offset where saxes stopped. */
  errorOffset: number;
  /** Offset just after the last tag, text or comment saxes completed. */
  lastEventEnd: number;
  /** Elements open at the time, outermost first. */
  openElements: readonly OpenElement[];
  at(offset: number): SourcePosition;
}

const VALID_REFERENCE = /^&(?:#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z_:][\w.:-]*);/;
const PREDEFINED = ['amp', 'lt', 'gt', 'quot', 'apos'];
/** HTML entities people paste, with the character reference XML needs instead. */
const HTML_ENTITY_FIX: Record<string, string> = { nbsp: '&#160;', copy: '&#169;', reg: '&#174;', trade: '&#8482;', mdash: '&#8212;', ndash: '&#8211;', hellip: '&#8230;', rsquo: '&#8217;', lsquo: '&#8216;', ldquo: '&#8220;', rdquo: '&#8221;', euro: '&#8364;' };

function where(p: SourcePosition): string {
  return `${p.line}:${p.column}`;
}

/** The first '&' after `from` that does not start a complete, well-formed reference. */
function findBareAmpersand(source: string, from: number, to: number): number {
  for (let i = source.indexOf('&', from); i >= 0 && i < to; i = source.indexOf('&', i + 1)) {
    if (!VALID_REFERENCE.test(source.slice(i, i + 40))) return i;
  }
  return -1;
}

/** The word holding source[at] ("AT&T"), or a few characters either side when it stands alone ("Tom & Jerry"). */
function wordAround(source: string, at: number): string {
  const start = Math.max(source.lastIndexOf('>', at), source.lastIndexOf(' ', at), source.lastIndexOf('\n', at)) + 1;
  const ends = [' ', '<', '\n'].map((c) => source.indexOf(c, at + 1)).filter((i) => i >= 0);
  const word = source.slice(start, ends.length > 0 ? Math.min(...ends) : source.length);
  return word.length > 1 ? word : source.slice(Math.max(0, at - 6), at + 8).split('\n').join(' ').trim();
}

export function describeXmlError(c: XmlErrorContext): SsmlProblem {
  const { source, message } = c;
  const top = c.openElements[c.openElements.length - 1];
  const base = { element: top?.name ?? '', attribute: '', value: '', allowed: [] as string[] };
  const end = Math.min(source.length, c.errorOffset + 1);

  const undefinedEntity = /undefined entity/i.test(message);
  if (!undefinedEntity) {
    const amp = findBareAmpersand(source, c.lastEventEnd, end);
    if (amp >= 0) {
      const token = /^&[^\s<&;]{0,20}/.exec(source.slice(amp))![0];
      // "&amp chips" lacks its ';'; "AT&T" and "Q&A" are a literal & that needs escaping.
      const incomplete = PREDEFINED.includes(token.slice(1)) || Object.hasOwn(HTML_ENTITY_FIX, token.slice(1)) || /^&#/.test(token);
      return {
        ...base,
        position: c.at(amp),
        value: token,
        allowed: ['&amp;'],
        message: incomplete
          ? `'${token}' is not a complete entity reference: it has no closing ';'. Write ${token}; if you meant the entity, or &amp; for a literal '&'`
          : `a bare '&' in '${wordAround(source, amp)}': XML needs a literal & written as &amp; (AT&amp;T, Q&amp;A)`,
      };
    }
  }
  if (undefinedEntity) {
    const region = source.slice(c.lastEventEnd, end);
    const all = [...region.matchAll(/&([A-Za-z_:][\w.:-]*);/g)].filter((m) => !PREDEFINED.includes(m[1]));
    const hit = all[all.length - 1];
    if (hit) {
      const name = hit[1];
      const fix = HTML_ENTITY_FIX[name];
      return {
        ...base,
        position: c.at(c.lastEventEnd + hit.index!),
        value: `&${name};`,
        allowed: ['&amp;', '&lt;', '&gt;', '&quot;', '&apos;', '&#NNN;'],
        message: `the entity '&${name};' is not defined: XML has only &amp; &lt; &gt; &quot; &apos; and character references; ${fix ? `write ${fix} instead` : 'write the character itself or a character reference such as &#160;'}`,
      };
    }
  }
  if (/unexpected close tag|unmatched closing tag/i.test(message)) {
    const closeStart = source.lastIndexOf('</', Math.max(0, c.errorOffset - 1));
    const closeName = closeStart >= 0 ? (/^<\/\s*([^\s>]+)/.exec(source.slice(closeStart))?.[1] ?? '') : '';
    const position = c.at(closeStart >= 0 ? closeStart : c.errorOffset);
    // Closing an element further out (</speak> with <voice> still open): the inner one was never closed; point where it opened.
    if (top && c.openElements.slice(0, -1).some((e) => e.name === closeName)) {
      return {
        ...base,
        position: top.position,
        value: `<${top.name}>`,
        allowed: [`</${top.name}>`],
        message: `<${top.name}> opened at ${where(top.position)} is never closed; add </${top.name}> before </${closeName}> at ${where(position)}`,
      };
    }
    if (top) {
      return {
        ...base,
        position,
        value: `</${closeName}>`,
        allowed: [`</${top.name}>`],
        message: `</${closeName}> at ${where(position)} does not match <${top.name}> opened at ${where(top.position)}; close <${top.name}> first (write </${top.name}>) or fix the tag name`,
      };
    }
    return { ...base, position, value: `</${closeName}>`, message: `</${closeName}> at ${where(position)} closes an element that is not open; remove it` };
  }
  const unclosed = /unclosed tag: (\S+)/.exec(message);
  if (unclosed && top) {
    return {
      ...base,
      position: top.position,
      value: `<${top.name}>`,
      allowed: [`</${top.name}>`],
      message: `<${top.name}> opened at ${where(top.position)} is never closed; add </${top.name}> where it ends`,
    };
  }
  if (/disallowed character in tag name|unexpected end of tag name/i.test(message)) {
    const lt = source.lastIndexOf('<', Math.max(0, c.errorOffset - 1));
    if (lt >= 0 && !/^<[A-Za-z_:/!?]/.test(source.slice(lt, lt + 2))) {
      return { ...base, position: c.at(lt), value: '<', allowed: ['&lt;'], message: `a bare '<' in '${source.slice(lt, lt + 12).split('\n')[0].trim()}…': it starts a tag in XML; write &lt; for a literal <` };
    }
  }
  const position = c.at(c.errorOffset);
  const ch = source[Math.max(0, c.errorOffset - 1)];
  if (ch === '<' && /disallowed character/i.test(message)) {
    return { ...base, position: c.at(c.errorOffset - 1), value: '<', allowed: ['&lt;'], message: `'<' cannot appear inside an attribute value or tag (is a closing quote missing before it?); write &lt; for a literal <` };
  }
  const shown = ch && /\S/.test(ch) ? ` (at '${ch}')` : '';
  return { ...base, position, message: `${message.replace(/\.$/, '')}${shown}; the document is not well-formed XML` };
}
