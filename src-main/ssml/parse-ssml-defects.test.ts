// Each defect of issue 26 as a test: what a document pasted from a vendor, or a mistake in one,
// used to do, and what it does now.
import { describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/errors';
import { corpusOptions, describeSegments } from './corpus/corpus-harness';
import { parseSsml } from './parse-ssml';
import type { SsmlOptionsInput } from './ssml-options';

const turns = (ssml: string, options: SsmlOptionsInput = {}) => describeSegments(parseSsml(ssml, options).segments);

function errorOf(ssml: string, options: SsmlOptionsInput = {}): StudioError {
  try {
    parseSsml(ssml, options);
  } catch (err) {
    if (err instanceof StudioError) return err;
    throw err;
  }
  throw new Error(`no error for ${ssml}`);
}

describe('punctuation after a closing element', () => {
  it('joins the turn before it instead of becoming a turn in the default voice', () => {
    expect(turns('<speak><voice name="ryan">Hi</voice>, <voice name="serena">there</voice>?</speak>', { knownVoices: ['ryan', 'serena'] }))
      .toEqual(['turn0 "Hi," voice=ryan', 'turn1 "there?" voice=serena']);
  });

  it('ends the language turn it follows: …</lang>. Next', () => {
    expect(turns('<speak>Say <lang xml:lang="fr-FR">merci</lang>. Then go.</speak>')).toEqual(['turn0 "Say"', 'turn1 "merci." lang=french', 'turn2 "Then go."']);
  });

  it('gives opening punctuation to the turn after it', () => {
    expect(turns('<speak><voice name="ryan">He said</voice> “<voice name="serena">hello</voice>”</speak>', { knownVoices: ['ryan', 'serena'] }))
      .toEqual(['turn0 "He said" voice=ryan', 'turn1 "“hello”" voice=serena']);
  });
});

describe('say-as language', () => {
  it('comes from the element’s own context, not from CJK anywhere in the source', () => {
    expect(turns('<speak>Call <say-as interpret-as="telephone">555-1234</say-as> now. (你好)</speak>')).toEqual(['turn0 "Call five five five, one two three four now. (你好)"']);
    expect(turns('<!-- 中文注释 --><speak>Call <say-as interpret-as="cardinal">12</say-as> <voice description="中文">now</voice></speak>')).toEqual(['turn0 "Call twelve"', 'turn1 "now" design="中文"']);
  });

  it('reads Chinese where the text around the element is Chinese', () => {
    expect(turns('<speak>请拨打<say-as interpret-as="telephone">110</say-as>报警。Call now.</speak>')).toEqual(['turn0 "请拨打幺幺零报警。Call now."']);
  });

  it('follows xml:lang and then the request language', () => {
    expect(turns('<speak xml:lang="zh-CN"><say-as interpret-as="cardinal">12</say-as></speak>')).toEqual(['turn0 "十二" lang=chinese']);
    expect(turns('<speak><say-as interpret-as="cardinal">12</say-as></speak>', { sayAsLanguage: 'chinese' })).toEqual(['turn0 "十二"']);
  });
});

describe('sentence and paragraph structure', () => {
  it('ends each <s> as a sentence, so unpunctuated sentences do not run together', () => {
    expect(turns('<speak><s>Mary had a little lamb</s> <s>Whose fleece was white as snow</s></speak>')).toEqual(['turn0 "Mary had a little lamb. Whose fleece was white as snow."']);
    expect(turns('<speak><s>你好</s><s>再见</s></speak>')).toEqual(['turn0 "你好。再见。"']);
  });

  it('pauses between paragraphs for the dialect’s documented length', () => {
    const doc = '<speak><p>One</p><p>Two</p></speak>';
    expect(turns(doc, { dialect: 'ssml11' })).toEqual(['turn0 "One."', 'break 800ms', 'turn1 "Two."']);
    expect(turns(doc, { dialect: 'polly' })).toEqual(['turn0 "One."', 'break 900ms', 'turn1 "Two."']); // Polly: <p> = x-strong
    expect(turns(doc, { dialect: 'azure' })).toEqual(['turn0 "One."', 'break 1000ms', 'turn1 "Two."']);
  });

  it('lets an explicit break between paragraphs stand for the pause instead of adding to it', () => {
    expect(turns('<speak><p>One</p><break time="2s"/><p>Two</p></speak>')).toEqual(['turn0 "One."', 'break 2000ms', 'turn1 "Two."']);
  });
});

describe('Azure readings', () => {
  const azure = '<speak xmlns:mstts="https://www.w3.org/2001/mstts">';
  it('reads rate="50%" as +50 % (1.5×) in Azure documents and as 0.5× in SSML 1.1', () => {
    expect(turns(`${azure}<prosody rate="50%">x</prosody></speak>`)).toEqual(['turn0 "x" rate=1.5']);
    expect(turns('<speak><prosody rate="50%">x</prosody></speak>', { dialect: 'azure' })).toEqual(['turn0 "x" rate=1.5']);
    expect(turns('<speak><prosody rate="50%">x</prosody></speak>')).toEqual(['turn0 "x" rate=0.5']);
  });

  it('accepts unsigned pitch and volume percentages and volume="+10" on the 0–100 scale', () => {
    expect(turns(`${azure}<prosody pitch="50%" volume="50%">a</prosody><prosody volume="+10">b</prosody><prosody volume="50">c</prosody></speak>`))
      .toEqual(['turn0 "a" pitch=7.01955 gain=3.521825', 'turn1 "b" gain=0.827854', 'turn2 "c" gain=-6.0206']); // 12·log2 1.5; 20·log10 1.5; 20·log10 110/100; 20·log10 ½
    expect(errorOf('<speak><prosody volume="+10">b</prosody></speak>', { dialect: 'ssml11' }).message).toContain("'+10' is not a valid volume in W3C SSML 1.1");
  });

  it('uses Azure’s keyword values and break strengths', () => {
    expect(turns(`${azure}<prosody rate="x-fast" pitch="x-low" volume="soft">a</prosody><break strength="x-weak"/><break/>b</speak>`))
      .toEqual(['turn0 "a" rate=2 pitch=-10.35 gain=-7.96', 'break 250ms', 'break 750ms', 'turn1 "b"']);
  });

  it('turns <bookmark mark> into a mark like <mark name>', () => {
    expect(turns(`${azure}We sell <bookmark mark="f1"/>roses.</speak>`)).toEqual(['turn0 "We sell roses."', 'mark f1 @turn0+7']);
  });
});

describe('vendor elements', () => {
  it('honours Google <voice language gender>: French, and a female speaker', () => {
    const r = parseSsml('<speak>She asked, <voice language="fr-FR" gender="female">ça va</voice></speak>', corpusOptions(false, 'google'));
    expect(describeSegments(r.segments)).toEqual(['turn0 "She asked,"', 'turn1 "ça va" voice=vivian lang=french']);
  });

  it('accepts <metadata> holding RDF and Dublin Core in strict mode without speaking it', () => {
    const doc = '<speak><metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/"><rdf:Description dc:Title="T"><dc:Creator>Me</dc:Creator></rdf:Description></rdf:RDF></metadata>Hello.</speak>';
    expect(parseSsml(doc)).toMatchObject({ warnings: [] });
    expect(turns(doc)).toEqual(['turn0 "Hello."']);
  });

  it('reads Google <par> and <seq> in strict and lenient mode, warning that <par> plays in order', () => {
    const doc = '<speak><par><media begin="1s"><speak>One.</speak></media><media><speak>Two.</speak></media></par></speak>';
    for (const strict of [true, false]) {
      const r = parseSsml(doc, { strict, dialect: 'google' });
      expect(describeSegments(r.segments)).toEqual(['break 1000ms', 'turn0 "One. Two."']);
      expect(r.warnings.map((w) => w.element)).toEqual(['par']);
    }
    expect(turns('<speak><seq><media><speak>A.</speak></media><media><speak>B.</speak></media></seq></speak>', { dialect: 'google' })).toEqual(['turn0 "A. B."']);
    // Read as SSML 1.1 they are not known: strict names Google, lenient still reads the words.
    expect(errorOf(doc, { dialect: 'ssml11' }).message).toContain('<par> is a Google Cloud TTS element, not part of W3C SSML 1.1; set the SSML dialect to google or auto');
    expect(describeSegments(parseSsml(doc, { dialect: 'ssml11', strict: false }).segments)).toEqual(['turn0 "One. Two."']);
  });

  it('warns about <lexicon>, naming it, instead of ignoring it silently', () => {
    const r = parseSsml('<speak><lexicon uri="http://x/l.pls" xml:id="l"/>BTW hi</speak>');
    expect(r.warnings).toMatchObject([{ element: 'lexicon', attribute: 'uri' }]);
    expect(r.warnings[0].message).toContain('not loaded');
  });

  it('silences say-as expletive instead of speaking the word, in lenient and strict mode', () => {
    for (const strict of [true, false]) {
      const r = parseSsml('<speak>You <say-as interpret-as="expletive">darn</say-as> fool</speak>', { strict });
      expect(describeSegments(r.segments)).toEqual(['turn0 "You"', 'break 320ms', 'turn1 "fool"']); // 4 chars × 80 ms, at least 300
      expect(JSON.stringify(r.segments)).not.toContain('darn');
    }
  });

  it('names a vendor element that belongs to another dialect, and drops it with a warning in lenient mode', () => {
    const doc = '<speak><amazon:effect name="whispered">psst</amazon:effect></speak>';
    expect(errorOf(doc, { dialect: 'azure' }).message).toContain('<amazon:effect> is a Amazon Polly element, not part of Azure; set the SSML dialect to polly or auto');
    const lenient = parseSsml(doc, { dialect: 'azure', strict: false });
    expect(describeSegments(lenient.segments)).toEqual(['turn0 "psst"']);
    expect(lenient.warnings[0]).toMatchObject({ element: 'amazon:effect' });
    const polly = parseSsml(doc);
    expect(polly.dialect).toBe('polly');
    expect(polly.warnings[0].message).toMatch(/^<amazon:effect> \(Amazon Polly: voice effects .*\) has no effect with this model and is dropped; its text is spoken$/);
  });

  it('says what auto chose and from which evidence', () => {
    expect(parseSsml('<speak><voice name="en-US-AvaNeural">Hi</voice></speak>')).toMatchObject({ dialect: 'azure', dialectDetectedFrom: "Azure voice name 'en-US-AvaNeural'" });
    expect(parseSsml('<speak>Hi</speak>')).toMatchObject({ dialect: 'ssml11', dialectDetectedFrom: 'no vendor namespace, element or voice name' });
    expect(parseSsml('<speak>Hi</speak>', { dialect: 'polly' })).toMatchObject({ dialect: 'polly', dialectDetectedFrom: null });
  });
});

/** XML mistakes: [test name, document, where and what the error names, what its message says]. */
const XML_ERRORS: [name: string, ssml: string, details: Record<string, unknown>, messageParts: string[]][] = [
  ['names a bare & at its own position, not "unclosed tag" at the end', '<speak>\n  <voice name="ryan">Tom & Jerry</voice>\n</speak>', { line: 2, column: 26, value: '&' }, ["a bare '&'", '&amp;']], // "  <voice name=\"ryan\">Tom " is 25 characters
  ['names an entity reference that lacks its semicolon', '<speak>Fish &amp chips</speak>', { line: 1, column: 13, value: '&amp' }, ["'&amp' is not a complete entity reference"]],
  ['names both tags of a mismatched close and where the open one started', '<speak>\n<voice name="ryan">hi</prosody>\n</speak>', { line: 2, column: 22, element: 'voice', value: '</prosody>' }, ['</prosody> at 2:22 does not match <voice> opened at 2:1']],
  ['tells a literal & in a word (AT&T) from an entity reference that lacks its semicolon', '<speak>Call AT&T now</speak>', { line: 1, column: 15, value: '&T' }, ["a bare '&' in", 'AT&amp;T']],
  ['names an undefined entity such as &nbsp; and its fix', '<speak>a&nbsp;b</speak>', { line: 1, column: 9, value: '&nbsp;' }, ["the entity '&nbsp;' is not defined", '&#160;']],
  ['names an element left open inside another where it opened, not at the outer close', '<speak>\n  <voice name="ryan">Opened here.\n  <break time="100ms"/>\n</speak>', { line: 2, column: 3, element: 'voice', value: '<voice>' }, ['<voice> opened at 2:3 is never closed', 'before </speak> at 4:1']],
  ['names the element left open at the end', '<speak>\n  <p>Hello\n', { line: 2, column: 3, element: 'p' }, ['<p> opened at 2:3 is never closed']],
];

describe('XML errors point at the mistake', () => {
  it.each(XML_ERRORS)('%s', (_name, ssml, details, messageParts) => {
    const err = errorOf(ssml);
    expect(err.details).toMatchObject(details);
    for (const part of messageParts) expect(err.message).toContain(part);
  });

  it('names a bare < in text and a < inside an attribute value', () => {
    const text = errorOf('<speak>5 < 6 is true</speak>');
    expect(text.details).toMatchObject({ line: 1, column: 10, value: '<' });
    expect(text.message).toContain("a bare '<'");
    const attribute = errorOf('<speak><voice name="a>b</voice></speak>');
    expect(attribute.details).toMatchObject({ value: '<' });
    expect(attribute.message).toContain('is a closing quote missing');
  });
});

describe('smaller defects', () => {
  it('keeps whitespace inside <phoneme> from leaking before punctuation', () => {
    expect(turns('<speak>Say <phoneme alphabet="ipa" ph="təˈmeɪtoʊ"> tomato </phoneme>.</speak>')).toEqual(['turn0 "Say tomato."']);
  });

  it('keeps say-as output apart from the words next to it', () => {
    expect(turns('<speak>Gate<say-as interpret-as="characters">B</say-as>12</speak>')).toEqual(['turn0 "Gate B 12"']);
    expect(turns('<speak>Room <say-as interpret-as="cardinal">5</say-as>, please.</speak>')).toEqual(['turn0 "Room five, please."']);
  });

  it('checks dates against the calendar', () => {
    expect(errorOf('<speak><say-as interpret-as="date" format="ymd">2023-02-29</say-as></speak>').message).toContain('is it a real calendar date?');
    expect(errorOf('<speak><say-as interpret-as="date" format="mdy">04/31/2024</say-as></speak>').details.value).toBe('04/31/2024');
    expect(turns('<speak><say-as interpret-as="date" format="ymd">2024-02-29</say-as></speak>')).toEqual(['turn0 "February twenty-ninth, twenty twenty-four"']);
    expect(turns('<speak><say-as interpret-as="date" format="ymd">2000-02-29</say-as></speak>')).toEqual(['turn0 "February twenty-ninth, two thousand"']);
  });

  it('uses each vendor’s published break-strength table', () => {
    const doc = '<speak>a<break strength="x-weak"/>b<break strength="weak"/>c<break strength="strong"/>d<break strength="x-strong"/>e</speak>';
    const breaks = (dialect: 'ssml11' | 'azure' | 'polly') => parseSsml(doc, { dialect }).segments.flatMap((s) => (s.kind === 'break' ? [s.durationMs] : []));
    expect(breaks('azure')).toEqual([250, 500, 1000, 1250]);
    expect(breaks('polly')).toEqual([300, 600, 900]); // x-weak = none; weak = comma, strong = sentence, x-strong = paragraph
    expect(breaks('ssml11')).toEqual([150, 300, 800, 1200]);
  });
});
