/**
 * SSML 1.1 → typed segment list, on the saxes streaming parser. Safe by construction: a
 * DOCTYPE is an error (so no DTD, no entity definitions, no expansion: XXE and billion-laughs
 * cannot happen; only the five XML entities and character references exist), and size, depth
 * and element count are capped. Every problem is a StudioError 'ssml-invalid' with
 * {line, column, element, attribute, value, allowed}; nothing else escapes parseSsml.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { StudioError } from '../../src-shared/errors';
import { applyEmphasis, applyLanguage, applyProsody, applyVoice, breakDurationMs, type Reporter } from './element-context';
import { ELEMENT_RULES, KNOWN_ELEMENTS, isNamespaceDeclaration, type ElementContent } from './element-table';
import { DATE_FORMATS, SAY_AS_INTERPRETATIONS, TIME_FORMATS, expandSayAs, type SayAsLanguage } from './say-as';
import type { SsmlParseResult, SsmlWarning } from './segments';
import { SourcePositions, ssmlError, type SourcePosition } from './source-positions';
import { resolveSsmlOptions, type SsmlOptions, type SsmlOptionsInput } from './ssml-options';
import { TurnBuilder, defaultTurnContext, type TurnContext } from './turn-builder';

export function parseSsml(source: string, options: SsmlOptionsInput = {}): SsmlParseResult {
  const resolved = resolveSsmlOptions(options);
  checkInputSize(source, resolved.maxBytes);
  if (source.trim() === '') {
    throw ssmlError({ position: { line: 1, column: 1 }, element: '', attribute: '', value: '', allowed: ['<speak>…</speak>'], message: 'the document is empty; write <speak>text</speak>, or send plain text with format "text"' });
  }
  try {
    return new SsmlDocument(source, resolved).parse();
  } catch (err) {
    if (err instanceof StudioError) throw err;
    // A bug here must still surface as a positioned, typed error rather than a crash.
    throw ssmlError({ position: { line: 1, column: 1 }, element: '', attribute: '', value: '', allowed: [], message: `the parser failed unexpectedly (${(err as Error)?.message ?? String(err)}); please report this document` }, 'internal');
  }
}

/** Size limit shared with plain text: UTF-8 bytes, checked before any parsing. */
export function checkInputSize(source: string, maxBytes: number): void {
  // UTF-16 length never exceeds the UTF-8 byte count, so the cheap test comes first.
  const numBytes = source.length > maxBytes ? source.length : Buffer.byteLength(source, 'utf8');
  if (numBytes > maxBytes) {
    throw ssmlError({ position: { line: 1, column: 1 }, element: '', attribute: '', value: `${numBytes} bytes`, allowed: [`at most ${maxBytes} bytes`], message: `the input is ${numBytes.toLocaleString('en-US')} bytes but the limit is ${maxBytes.toLocaleString('en-US')}; split it into several requests or raise maxBytes` }, 'input-too-long');
  }
}

type CollectorKind = 'say-as' | 'sub' | 'phoneme' | 'audio' | 'hidden';

interface Collector {
  kind: CollectorKind;
  text: string;
}

interface Frame {
  name: string;
  content: ElementContent;
  context: TurnContext;
  attrs: Record<string, string>;
  position: SourcePosition;
  /** The collector this element's text goes to: its own, or the nearest ancestor's. */
  sink: Collector | null;
  own: Collector | null;
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const URL_SCHEME = /^([a-z][a-z0-9+.-]*):/i;

class SsmlDocument {
  private readonly xml = new SaxesParser({ xmlns: false, position: true });
  private readonly positions: SourcePositions;
  private readonly builder = new TurnBuilder();
  private readonly warnings: SsmlWarning[] = [];
  private readonly stack: Frame[] = [];
  private numElements = 0;
  private sawRoot = false;
  private tagOffset = 0;
  private tagEnd = 0;

  constructor(private readonly source: string, private readonly options: Readonly<SsmlOptions>) {
    this.positions = new SourcePositions(source);
  }

  parse(): SsmlParseResult {
    const xml = this.xml;
    xml.on('error', (err) => this.failAtParser(err.message.replace(/^(?:[^:\n]*:)?\d+:\d+: /, '')));
    xml.on('doctype', (doctype) => {
      const offset = this.source.indexOf('<!DOCTYPE');
      throw ssmlError({ position: this.positions.at(offset < 0 ? 0 : offset), element: '!DOCTYPE', attribute: '', value: doctype.trim().slice(0, 80), allowed: [], message: 'a DOCTYPE is not allowed in SSML (no DTDs, no entity definitions); remove the <!DOCTYPE …> declaration' });
    });
    xml.on('opentag', (tag) => this.open(tag));
    xml.on('closetag', () => this.close());
    xml.on('text', (text) => this.text(text));
    xml.on('cdata', (text) => this.text(text));
    xml.write(this.source).close();
    if (!this.sawRoot) this.failAtParser('there is no <speak> element; wrap the document in <speak>…</speak>');
    const segments = this.builder.finish();
    if (!segments.some((s) => s.kind === 'turn' || s.kind === 'audio')) {
      throw ssmlError({ position: this.positions.at(this.source.length), element: 'speak', attribute: '', value: '', allowed: ['text', '<audio>'], message: 'the document has nothing to speak; add text inside <speak>' });
    }
    return { segments, warnings: this.warnings };
  }

  private failAtParser(message: string): never {
    const top = this.stack[this.stack.length - 1];
    throw ssmlError({ position: { line: this.xml.line, column: this.xml.column + 1 }, element: top?.name ?? '', attribute: '', value: '', allowed: [], message });
  }

  private reporterFor(element: string, position: SourcePosition): Reporter {
    return {
      reject: (attribute, value, allowed, message) => {
        const at = attribute ? this.attributePosition(attribute) ?? position : position;
        if (this.options.strict) throw ssmlError({ position: at, element, attribute, value, allowed, message: `<${element}> ${message}` });
        this.warnings.push({ message: `<${element}> ${message}`, line: at.line, column: at.column, element, attribute });
      },
      warn: (attribute, message) => {
        const at = attribute ? this.attributePosition(attribute) ?? position : position;
        this.warnings.push({ message: `<${element}> ${message}`, line: at.line, column: at.column, element, attribute });
      },
    };
  }

  /** Where `name="…"` starts inside the current tag, if it is there. */
  private attributePosition(name: string): SourcePosition | null {
    const tag = this.source.slice(this.tagOffset, this.tagEnd);
    const m = new RegExp(`\\s${name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}\\s*=`).exec(tag);
    return m ? this.positions.at(this.tagOffset + m.index + 1) : null;
  }

  private open(tag: SaxesTagPlain): void {
    this.tagEnd = this.xml.position;
    this.tagOffset = this.source.lastIndexOf('<', this.tagEnd - 1);
    const position = this.positions.at(this.tagOffset);
    const name = tag.name;
    const fail = (message: string, allowed: readonly string[] = [], attribute = '', value = ''): never => {
      throw ssmlError({ position, element: name, attribute, value, allowed, message });
    };
    if (++this.numElements > this.options.maxElements) fail(`the document has more than ${this.options.maxElements} elements; split it or raise maxElements`, [`at most ${this.options.maxElements} elements`]);
    if (this.stack.length + 1 > this.options.maxDepth) fail(`elements are nested more than ${this.options.maxDepth} deep; flatten the markup`, [`depth at most ${this.options.maxDepth}`]);
    const parent = this.stack[this.stack.length - 1];
    if (!parent) {
      if (name !== 'speak') fail(`the root element is <${name}>; an SSML document starts with <speak>`, ['speak']);
      this.sawRoot = true;
    } else if (name === 'speak') {
      fail('<speak> cannot be nested; remove the inner <speak>', []);
    }
    const report = this.reporterFor(name, position);
    const attrs = tag.attributes as Record<string, string>;
    const frame: Frame = { name, content: 'mixed', context: parent?.context ?? defaultTurnContext(), attrs, position, sink: parent?.sink ?? null, own: null };
    this.stack.push(frame);

    if (parent && (parent.content === 'text' || parent.content === 'empty')) {
      report.reject('', name, [], `cannot be inside <${parent.name}>, which holds ${parent.content === 'text' ? 'text only' : 'nothing'}; move it out (lenient mode keeps only its text)`);
      return;
    }
    const rule = ELEMENT_RULES[name];
    if (!rule) {
      report.reject('', name, KNOWN_ELEMENTS, `is not an SSML element the studio supports; use one of: ${KNOWN_ELEMENTS.join(', ')} (lenient mode keeps its text)`);
      return;
    }
    frame.content = rule.content;
    for (const attribute of Object.keys(attrs)) {
      if (isNamespaceDeclaration(attribute) || rule.attributes.includes(attribute)) continue;
      if (rule.ignoredAttributes?.includes(attribute)) report.warn(attribute, `attribute ${attribute} is accepted but has no effect in the studio`);
      else report.reject(attribute, attrs[attribute], rule.attributes, `has no attribute ${attribute}; allowed: ${rule.attributes.join(', ') || 'none'}`);
    }
    for (const attribute of rule.required ?? []) {
      if (attrs[attribute] === undefined) {
        report.reject(attribute, '', [attribute], `needs the attribute ${attribute} (lenient mode ignores the element)`);
        frame.content = rule.content === 'empty' ? 'empty' : 'mixed';
        return;
      }
    }
    if (frame.sink) {
      // Inside <audio> fallback or hidden content nothing else takes effect.
      if (rule.content === 'hidden') frame.sink = frame.own = { kind: 'hidden', text: '' };
      return;
    }
    this.applyElement(frame, report);
  }

  private applyElement(frame: Frame, report: Reporter): void {
    const { name, attrs } = frame;
    const options = this.options;
    switch (name) {
      case 'speak':
      case 'lang':
      case 'token':
      case 'w':
        frame.context = applyLanguage(frame.context, attrs, 'xml:lang', options, report);
        return;
      case 'p':
      case 's':
        frame.context = applyLanguage(frame.context, attrs, 'xml:lang', options, report);
        this.builder.wordBreak();
        return;
      case 'voice':
        frame.context = applyVoice(frame.context, attrs, options, report);
        return;
      case 'prosody':
        frame.context = applyProsody(frame.context, attrs, options, report);
        return;
      case 'emphasis':
        frame.context = applyEmphasis(frame.context, attrs, report);
        return;
      case 'break': {
        const durationMs = breakDurationMs(attrs, options, report);
        if (durationMs > 0) this.builder.addBreak(durationMs);
        else this.builder.wordBreak();
        return;
      }
      case 'mark':
        if (attrs.name.trim() === '') report.reject('name', '', [], 'mark name is empty; give the mark a name');
        else this.builder.addMark(attrs.name.trim());
        return;
      case 'say-as':
        this.checkSayAs(attrs, report);
        frame.sink = frame.own = { kind: 'say-as', text: '' };
        return;
      case 'sub':
        frame.sink = frame.own = { kind: 'sub', text: '' };
        return;
      case 'phoneme':
        report.warn('ph', `phoneme ph="${attrs.ph}" is ignored (Qwen3-TTS takes no phonemes); the element's text is spoken`);
        frame.sink = frame.own = { kind: 'phoneme', text: '' };
        return;
      case 'audio':
        if (!this.checkAudioSource(attrs.src, report)) return; // dropped in lenient mode: its fallback text is spoken
        frame.sink = frame.own = { kind: 'audio', text: '' };
        return;
      case 'lookup':
        report.warn('ref', 'lookup is accepted but lexicons are not supported; its text is spoken as written');
        return;
      default:
        frame.sink = frame.own = { kind: 'hidden', text: '' };
    }
  }

  private checkSayAs(attrs: Record<string, string>, report: Reporter): void {
    const kind = attrs['interpret-as'];
    if (!(SAY_AS_INTERPRETATIONS as readonly string[]).includes(kind)) {
      report.reject('interpret-as', kind, SAY_AS_INTERPRETATIONS, `interpret-as '${kind}' is not supported; use ${SAY_AS_INTERPRETATIONS.join(', ')} (lenient mode reads the text as written)`);
      return;
    }
    const format = attrs.format;
    const formats: readonly string[] | null = kind === 'date' ? DATE_FORMATS : kind === 'time' ? TIME_FORMATS : null;
    if (format !== undefined && formats && !formats.includes(format)) {
      report.reject('format', format, formats, `format '${format}' is not a ${kind} format; use ${formats.join(', ')}`);
    }
  }

  private checkAudioSource(src: string, report: Reporter): boolean {
    const trimmed = src.trim();
    const scheme = URL_SCHEME.exec(trimmed)?.[1]?.toLowerCase();
    const isDrive = scheme !== undefined && scheme.length === 1; // C:\clips\a.wav
    if (trimmed === '' || (scheme !== undefined && scheme !== 'file' && !isDrive)) {
      report.reject('src', src, ['a local path', 'file: URL'], `audio src '${src}' is not a local file; the studio inserts local files only (lenient mode speaks the fallback text)`);
      return false;
    }
    return true;
  }

  private close(): void {
    const frame = this.stack.pop()!;
    if (frame.name === 'p' || frame.name === 's') this.builder.wordBreak();
    const own = frame.own;
    if (!own) return;
    const report = this.reporterFor(frame.name, frame.position);
    switch (own.kind) {
      case 'say-as':
        this.emit(frame, this.expandSayAs(frame, own.text, report));
        return;
      case 'sub':
        this.emit(frame, frame.attrs.alias);
        return;
      case 'phoneme':
        this.emit(frame, own.text);
        return;
      case 'audio':
        this.builder.addAudio(frame.attrs.src.trim(), own.text.replace(/\s+/g, ' ').trim());
        return;
      case 'hidden':
        return;
    }
  }

  private expandSayAs(frame: Frame, text: string, report: Reporter): string {
    const kind = frame.attrs['interpret-as'];
    if (!(SAY_AS_INTERPRETATIONS as readonly string[]).includes(kind)) return text;
    const language = this.sayAsLanguage(frame.context);
    if (language === null) {
      report.warn('interpret-as', `say-as is implemented for English and Chinese only; the text is read as written in ${frame.context.language}`);
      return text;
    }
    const format = frame.attrs.format ?? null;
    const expanded = expandSayAs(kind, format, text, language);
    if (expanded === null) {
      report.reject('interpret-as', text.trim(), [kind], `text '${text.trim()}' cannot be read as ${kind}${format ? ` (format ${format})` : ''}; fix the text or the interpret-as value (lenient mode reads it as written)`);
      return text;
    }
    return expanded;
  }

  private sayAsLanguage(context: TurnContext): SayAsLanguage | null {
    const language = context.language ?? (this.options.sayAsLanguage === 'auto' ? (CJK.test(this.source) ? 'chinese' : 'english') : this.options.sayAsLanguage);
    return language === 'english' || language === 'chinese' ? language : null;
  }

  /** Text produced by a closed element goes to the enclosing collector, else into the turns. */
  private emit(frame: Frame, text: string): void {
    const parent = this.stack[this.stack.length - 1];
    if (parent?.sink) {
      if (parent.sink.kind !== 'hidden') parent.sink.text += text;
      return;
    }
    this.builder.appendText(frame.context, text);
  }

  private text(text: string): void {
    const top = this.stack[this.stack.length - 1];
    if (!top) return; // whitespace around the root
    if (top.sink) {
      if (top.sink.kind !== 'hidden') top.sink.text += text;
      return;
    }
    if (top.content === 'empty') {
      if (text.trim() !== '') this.reporterFor(top.name, top.position).reject('', text.trim(), [], `holds no text; move the text after </${top.name}>`);
      return;
    }
    this.builder.appendText(top.context, text);
  }
}
