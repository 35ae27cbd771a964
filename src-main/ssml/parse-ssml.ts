/**
 * SSML → typed segment list, on the saxes streaming parser, in one of four dialects (W3C SSML
 * 1.1, Azure, Google Cloud TTS, Amazon Polly; 'auto' detects it and says what it chose). Safe by
 * construction: a DOCTYPE is an error (so no DTD, no entity definitions, no expansion: XXE and
 * billion-laughs cannot happen), and size, depth and element count are capped. Every problem is
 * a StudioError 'ssml-invalid' with {line, column, element, attribute, value, allowed}; XML
 * errors name the offending token (xml-errors.ts). Nothing else escapes parseSsml.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { StudioError } from '../../src-shared/errors';
import { DIALECT_LABELS, DIALECT_RULES, chooseDialect, type DialectChoice } from './dialects';
import { applyEmphasis, assignSpeaker, applyLanguage, applyProsody, applyVoice, breakDurationMs, durationMs, type ReadingRules, type Reporter } from './element-context';
import { ELEMENT_RULES, attributesOf, elementsOf, isNamespaceDeclaration, type ElementContent } from './element-table';
import type { SayAsLanguage } from './say-as';
import { checkSayAs, readSayAs } from './say-as/say-as-element';
import { SAY_AS_BLEEPED } from './say-as/values';
import type { SsmlParseResult, SsmlWarning } from './segments';
import { SourcePositions, ssmlError, type SourcePosition } from './source-positions';
import { resolveSsmlOptions, type SsmlOptions, type SsmlOptionsInput } from './ssml-options';
import { TurnBuilder, defaultTurnContext, type TurnContext } from './turn-builder';
import { describeXmlError } from './xml-errors';
import { MATHML_READ, MATHML_REFUSED, MathTreeBuilder, localName } from './math/math-tree';
import { readMath } from './math/read-math';

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

type CollectorKind = 'say-as' | 'sub' | 'phoneme' | 'audio' | 'hidden' | 'math';

interface Collector {
  kind: CollectorKind;
  text: string;
  /** <math>: the MathML below it, read aloud on close. */
  math?: MathTreeBuilder;
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

/** Elements whose edges separate words even where the source has no space (structure, voices, media). */
const WORD_BOUNDARY_ELEMENTS = new Set(['speak', 'p', 's', 'voice', 'media', 'par', 'seq', 'audio', 'desc', 'mstts:turn', 'mstts:dialog', 'mstts:express-as', 'amazon:domain', 'amazon:auto-breaths', 'amazon:effect']);
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const URL_SCHEME = /^([a-z][a-z0-9+.-]*):/i;
/** About the length of a spoken word per character, for a bleeped expletive's silence. */
const BLEEP_MS_PER_CHAR = 80;
const BLEEP_RANGE_MS = { min: 300, max: 1500 };

class SsmlDocument {
  private readonly xml = new SaxesParser({ xmlns: false, position: true });
  private readonly positions: SourcePositions;
  private readonly builder = new TurnBuilder();
  private readonly warnings: SsmlWarning[] = [];
  private readonly stack: Frame[] = [];
  private readonly choice: DialectChoice;
  private readonly env: ReadingRules;
  private readonly lenient: string;
  private numElements = 0;
  private sawRoot = false;
  private tagOffset = 0;
  private tagEnd = 0;
  private lastEventEnd = 0;
  private numBleeped = 0;

  constructor(private readonly source: string, private readonly options: Readonly<SsmlOptions>) {
    this.positions = new SourcePositions(source);
    this.choice = chooseDialect(options.dialect, source);
    this.env = { options, rules: DIALECT_RULES[this.choice.dialect], assignedVoices: new Map(), voiceMappings: [] };
    this.lenient = options.strict ? ' (lenient mode keeps its text)' : '';
  }

  parse(): SsmlParseResult {
    const xml = this.xml;
    xml.on('error', (err) => this.failAtParser(err.message.replace(/^(?:[^:\n]*:)?\d+:\d+: /, '')));
    xml.on('doctype', (doctype) => {
      const offset = this.source.indexOf('<!DOCTYPE');
      throw ssmlError({ position: this.positions.at(offset < 0 ? 0 : offset), element: '!DOCTYPE', attribute: '', value: doctype.trim().slice(0, 80), allowed: [], message: 'a DOCTYPE is not allowed in SSML (no DTDs, no entity definitions); remove the <!DOCTYPE …> declaration' });
    });
    xml.on('opentag', (tag) => {
      this.open(tag);
      this.lastEventEnd = xml.position;
    });
    xml.on('closetag', (tag) => {
      // saxes closes the open elements before reporting a close tag that matches none of them;
      // check the written name here, while the element it fails to close is still known.
      if (!tag.isSelfClosing) {
        const start = this.source.lastIndexOf('</', xml.position - 1);
        const written = /^<\/\s*([^\s>]+)/.exec(this.source.slice(start, start + 200))?.[1];
        if (written !== undefined && written !== tag.name) this.failAtParser('unexpected close tag');
      }
      this.close();
      this.lastEventEnd = xml.position;
    });
    xml.on('text', (text) => {
      this.text(text);
      this.lastEventEnd = Math.max(this.lastEventEnd, xml.position - 1);
    });
    xml.on('cdata', (text) => {
      this.text(text);
      this.lastEventEnd = xml.position;
    });
    xml.on('comment', () => {
      this.lastEventEnd = xml.position;
    });
    xml.on('processinginstruction', () => {
      this.lastEventEnd = xml.position;
    });
    xml.write(this.source).close();
    if (!this.sawRoot) this.failAtParser('there is no <speak> element; wrap the document in <speak>…</speak>');
    const segments = this.builder.finish();
    if (!segments.some((s) => s.kind === 'turn' || s.kind === 'audio')) {
      const why = this.numBleeped > 0 ? "the document's only words are bleeped (say-as expletive)" : 'the document has nothing to speak';
      throw ssmlError({ position: this.positions.at(this.source.length), element: 'speak', attribute: '', value: '', allowed: ['text', '<audio>'], message: `${why}; add text inside <speak>` });
    }
    const mappings = this.env.voiceMappings.length > 0 ? { voiceMappings: this.env.voiceMappings } : {};
    return { segments, warnings: this.warnings, dialect: this.choice.dialect, dialectDetectedFrom: this.choice.detectedFrom, ...mappings };
  }

  private failAtParser(message: string): never {
    const problem = describeXmlError({
      source: this.source,
      message,
      errorOffset: this.xml.position,
      lastEventEnd: this.lastEventEnd,
      openElements: this.stack.map((f) => ({ name: f.name, position: f.position })),
      at: (offset) => this.positions.at(offset),
    });
    throw ssmlError(problem);
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
    const dialect = this.choice.dialect;
    const fail = (message: string, allowed: readonly string[] = [], attribute = '', value = ''): never => {
      throw ssmlError({ position, element: name, attribute, value, allowed, message });
    };
    if (++this.numElements > this.options.maxElements) fail(`the document has more than ${this.options.maxElements} elements; split it or raise maxElements`, [`at most ${this.options.maxElements} elements`]);
    if (this.stack.length + 1 > this.options.maxDepth) fail(`elements are nested more than ${this.options.maxDepth} deep; flatten the markup`, [`depth at most ${this.options.maxDepth}`]);
    const parent = this.stack[this.stack.length - 1];
    if (!parent) {
      if (name !== 'speak') fail(`the root element is <${name}>; an SSML document starts with <speak>`, ['speak']);
      this.sawRoot = true;
    }
    const report = this.reporterFor(name, position);
    const attrs = tag.attributes as Record<string, string>;
    const frame: Frame = { name, content: 'mixed', context: parent?.context ?? defaultTurnContext(), attrs, position, sink: parent?.sink ?? null, own: null };
    this.stack.push(frame);
    if (frame.sink?.kind === 'math') {
      this.openMathElement(name, attrs, report);
      return;
    }
    if (parent && name === 'speak' && !(dialect === 'google' && parent.name === 'media')) {
      // Lenient mode reads an inner <speak> (Google's <media><speak>) as a plain container.
      report.reject('', name, [], `cannot be nested${dialect === 'google' ? ' (Google allows it only inside <media>)' : ' (only Google allows it, inside <media>; set the dialect to google or auto)'}; remove the inner <speak>${this.lenient}`);
      return;
    }
    // Inside <metadata>, <desc> and the like anything goes (RDF, Dublin Core): nothing is spoken.
    if (frame.sink?.kind === 'hidden') return;

    if (parent && (parent.content === 'text' || parent.content === 'empty')) {
      report.reject('', name, [], `cannot be inside <${parent.name}>, which holds ${parent.content === 'text' ? 'text only' : 'nothing'}; move it out${this.lenient}`);
      return;
    }
    const rule = ELEMENT_RULES[name];
    if (!rule || (rule.dialects && !rule.dialects.includes(dialect))) {
      const owner = rule?.dialects ? rule.dialects.map((d) => DIALECT_LABELS[d]).join(', ') : null;
      const why = owner ? `is a ${owner} element, not part of ${DIALECT_LABELS[dialect]}; set the SSML dialect to ${rule!.dialects![0]} or auto` : `is not an element of ${DIALECT_LABELS[dialect]} the studio knows; use one of: ${elementsOf(dialect).join(', ')}`;
      report.reject('', name, elementsOf(dialect), `${why}${this.lenient}`);
      return;
    }
    frame.content = rule.content;
    const { acted, ignored } = attributesOf(rule, dialect);
    for (const attribute of Object.keys(attrs)) {
      if (isNamespaceDeclaration(attribute) || acted.includes(attribute)) continue;
      if (ignored.includes(attribute)) report.warn(attribute, `attribute ${attribute} is accepted but has no effect in the studio`);
      else report.reject(attribute, attrs[attribute], acted, `has no attribute ${attribute} in ${DIALECT_LABELS[dialect]}; allowed: ${acted.join(', ') || 'none'}`);
    }
    for (const attribute of rule.required ?? []) {
      if (attrs[attribute] === undefined) {
        report.reject(attribute, '', [attribute], `needs the attribute ${attribute} (lenient mode ignores the element)`);
        frame.content = rule.content === 'empty' ? 'empty' : 'mixed';
        return;
      }
    }
    if (frame.sink) {
      // Inside <audio> fallback nothing else takes effect.
      if (rule.content === 'hidden') frame.sink = frame.own = { kind: 'hidden', text: '' };
      return;
    }
    if (WORD_BOUNDARY_ELEMENTS.has(name)) this.builder.wordBreak();
    if (rule.dropped) {
      report.warn('', `(${DIALECT_LABELS[dialect]}: ${rule.dropped}) has no effect with this model and is dropped${rule.content === 'empty' ? '' : '; its text is spoken'}`);
      return;
    }
    this.applyElement(frame, report);
  }

  private applyElement(frame: Frame, report: Reporter): void {
    const { name, attrs } = frame;
    const env = this.env;
    switch (name) {
      case 'speak':
      case 'lang':
      case 'token':
      case 'w':
        frame.context = applyLanguage(frame.context, attrs, 'xml:lang', env, report);
        return;
      case 'p':
        frame.context = applyLanguage(frame.context, attrs, 'xml:lang', env, report);
        this.builder.paragraphEnd(env.rules.paragraphPauseMs);
        return;
      case 's':
        frame.context = applyLanguage(frame.context, attrs, 'xml:lang', env, report);
        this.builder.sentenceEnd();
        return;
      case 'voice':
        frame.context = applyVoice(frame.context, attrs, env, report);
        return;
      case 'mstts:turn': {
        const speaker = assignSpeaker(`turn:${attrs.speaker}`, null, frame.context.language, env);
        report.warn('speaker', `Azure multi-talker speaker '${attrs.speaker}' is not a speaker of this model; ${speaker ? `speaker '${speaker}'` : "the request's voice"} reads this turn`);
        if (speaker) frame.context = { ...frame.context, voice: speaker, voiceDescription: null };
        return;
      }
      case 'prosody':
        frame.context = applyProsody(frame.context, attrs, env, report);
        return;
      case 'emphasis':
        frame.context = applyEmphasis(frame.context, attrs, report);
        return;
      case 'break': {
        const ms = breakDurationMs(attrs, env, report);
        if (ms > 0) this.builder.addBreak(ms);
        else this.builder.wordBreak();
        return;
      }
      case 'mark':
      case 'bookmark': {
        const markName = (name === 'mark' ? attrs.name : attrs.mark).trim();
        if (markName === '') report.reject(name === 'mark' ? 'name' : 'mark', '', [], 'mark name is empty; give the mark a name');
        else this.builder.addMark(markName);
        return;
      }
      case 'par':
        report.warn('', 'plays its children at the same time; the studio plays them one after another');
        return;
      case 'media': {
        const beginMs = attrs.begin !== undefined && /^\s*[\d.]+\s*m?s\s*$/.test(attrs.begin) ? durationMs(attrs, 'begin', env, report) : null;
        if (beginMs !== null && beginMs > 0) this.builder.addBreak(beginMs);
        const timing = ['begin', 'end', 'repeatCount', 'repeatDur', 'soundLevel', 'fadeInDur', 'fadeOutDur'].filter((a) => attrs[a] !== undefined && !(a === 'begin' && beginMs !== null));
        if (timing.length > 0) report.warn(timing[0], `timing and level attributes (${timing.join(', ')}) are not supported; the content plays in order${beginMs ? ` after a ${beginMs} ms pause` : ''}`);
        return;
      }
      case 'say-as':
        checkSayAs(attrs, this.choice.dialect, report);
        frame.sink = frame.own = { kind: 'say-as', text: '' };
        return;
      case 'sub':
        frame.sink = frame.own = { kind: 'sub', text: '' };
        return;
      case 'math':
        frame.sink = frame.own = { kind: 'math', text: '', math: new MathTreeBuilder(attrs) };
        return;
      case 'phoneme':
        report.warn('ph', `phoneme ph="${attrs.ph}" is ignored (Qwen3-TTS takes no phonemes); the element's text is spoken`);
        frame.sink = frame.own = { kind: 'phoneme', text: '' };
        return;
      case 'audio':
        if (!this.checkAudioSource(attrs.src, report)) {
          this.builder.wordBreak(); // dropped: its fallback text is spoken as words of their own
          return;
        }
        frame.sink = frame.own = { kind: 'audio', text: '' };
        return;
      case 'lookup':
        report.warn('ref', 'lookup is accepted but lexicons are not supported; its text is spoken as written');
        return;
      case 'lexicon':
        report.warn('uri', `lexicon ${attrs.uri ?? attrs['xml:id'] ?? ''} is not loaded (the studio has no pronunciation lexicons); words are spoken as written`);
        frame.sink = frame.own = { kind: 'hidden', text: '' };
        return;
      default:
        // seq, mstts:dialog: containers; meta, metadata, desc: nothing spoken.
        if (frame.content === 'hidden') frame.sink = frame.own = { kind: 'hidden', text: '' };
    }
  }

  private checkAudioSource(src: string, report: Reporter): boolean {
    const trimmed = src.trim();
    const scheme = URL_SCHEME.exec(trimmed)?.[1]?.toLowerCase();
    const isDrive = scheme !== undefined && scheme.length === 1; // C:\clips\a.wav
    if (trimmed === '' || (scheme !== undefined && scheme !== 'file' && !isDrive)) {
      const message = `audio src '${src}' is not a local file; the studio inserts local files only, so its fallback text is spoken instead`;
      // Vendor documents point at their own hosting: read them with the fallback, as their services do when a fetch fails.
      if (this.choice.dialect === 'ssml11') report.reject('src', src, ['a local path', 'file: URL'], `${message} (in lenient mode)`);
      else report.warn('src', message);
      return false;
    }
    return true;
  }

  private close(): void {
    const frame = this.stack.pop()!;
    if (frame.sink?.kind === 'math' && frame.own === null) {
      frame.sink.math!.closeElement();
      return;
    }
    if (!frame.sink && WORD_BOUNDARY_ELEMENTS.has(frame.name)) this.builder.wordBreak();
    const handled = !frame.sink || frame.own !== null;
    if (frame.name === 'p' && handled && frame.content !== 'hidden') this.builder.paragraphEnd(this.env.rules.paragraphPauseMs);
    if (frame.name === 's' && handled) this.builder.sentenceEnd();
    if (frame.name === 'audio' && !frame.own && !frame.sink) this.builder.wordBreak();
    const own = frame.own;
    if (!own) return;
    const report = this.reporterFor(frame.name, frame.position);
    switch (own.kind) {
      case 'say-as':
        this.closeSayAs(frame, own.text, report);
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
      case 'math':
        this.emit(frame, this.readMathAloud(frame, own, report));
        return;
    }
  }

  /** A MathML element below <math>: read ones join the tree; refused and unknown ones are errors (strict) or read as their content. */
  private openMathElement(name: string, attrs: Record<string, string>, report: Reporter): void {
    const local = localName(name);
    const refused = MATHML_REFUSED[local];
    if (refused) report.reject('', name, [...MATHML_READ], `is MathML the studio cannot read aloud (${refused}); rewrite it with mfrac, msup, msub, msqrt, mroot, mrow, mi, mn, mo (lenient mode reads its content in order)`);
    else if (!MATHML_READ.has(local)) report.reject('', name, [...MATHML_READ], `is not a MathML element; use ${[...MATHML_READ].join(', ')} (lenient mode reads its content in order)`);
    this.stack[this.stack.length - 1].sink!.math!.openElement(refused || !MATHML_READ.has(local) ? 'mrow' : local, attrs);
  }

  private readMathAloud(frame: Frame, own: Collector, report: Reporter): string {
    const language = this.sayAsLanguage(frame.context, '');
    if (language === null) {
      report.warn('', `MathML is read in English and Chinese only; it is read in English here, not in ${frame.context.language}`);
    }
    return readMath(own.math!.root, language === 'chinese');
  }

  private closeSayAs(frame: Frame, text: string, report: Reporter): void {
    const kind = frame.attrs['interpret-as'];
    if ((SAY_AS_BLEEPED as readonly string[]).includes(kind)) {
      const parent = this.stack[this.stack.length - 1];
      if (parent?.sink) return; // inside a fallback or alias: nothing is spoken there either
      const ms = Math.min(BLEEP_RANGE_MS.max, Math.max(BLEEP_RANGE_MS.min, text.trim().length * BLEEP_MS_PER_CHAR));
      report.warn('interpret-as', `'${kind}' is silenced for ${ms} ms (the studio has no bleep tone); the word is not spoken`);
      this.builder.addBreak(ms);
      this.numBleeped++;
      return;
    }
    const language = (own: string | null | undefined) => (own !== undefined ? (own === 'english' || own === 'chinese' ? own : null) : this.sayAsLanguage(frame.context, text));
    this.emit(frame, readSayAs(frame.attrs, text, this.choice.dialect, language, frame.context.language, report));
  }

  /**
   * The say-as element's own language: its xml:lang context, else the request's language, else
   * the text around it (the turn so far, its own text, and the text up to the next tag).
   */
  private sayAsLanguage(context: TurnContext, ownText: string): SayAsLanguage | null {
    let language = context.language ?? (this.options.sayAsLanguage !== 'auto' ? this.options.sayAsLanguage : null);
    if (language === null) {
      // The nearest writing decides: the turn's last letter before the element, else its own text,
      // else the text after it up to the next tag or sentence end. Never comments or far-away text.
      const before = /[\p{L}]/u.exec([...this.builder.currentText(context)].reverse().join(''))?.[0];
      const after = this.source.slice(this.xml.position, this.xml.position + 200).split(/[<.!?。！？]/)[0];
      const nearest = before ?? (/[\p{L}]/u.test(ownText) ? ownText : after);
      language = CJK.test(nearest) ? 'chinese' : 'english';
    }
    return language === 'english' || language === 'chinese' ? language : null;
  }

  /** Text produced by a closed element goes to the enclosing collector, else into the turns as its own word. */
  private emit(frame: Frame, text: string): void {
    const parent = this.stack[this.stack.length - 1];
    if (parent?.sink) {
      if (parent.sink.kind !== 'hidden') parent.sink.text += text;
      return;
    }
    const word = text.replace(/\s+/g, ' ').trim();
    if (word === '') return;
    this.builder.wordBreak();
    this.builder.appendText(frame.context, word);
    this.builder.wordBreak();
  }

  private text(text: string): void {
    const top = this.stack[this.stack.length - 1];
    if (!top) return; // whitespace around the root
    if (top.sink) {
      if (top.sink.kind === 'math') top.sink.math!.text(text);
      else if (top.sink.kind !== 'hidden') top.sink.text += text;
      return;
    }
    if (top.content === 'empty') {
      if (text.trim() !== '') this.reporterFor(top.name, top.position).reject('', text.trim(), [], `holds no text; move the text after </${top.name}>`);
      return;
    }
    this.builder.appendText(top.context, text);
  }
}
