// Golden segment lists for a corpus of SSML documents (SSML 1.1 features plus vendor habits).
// Segments are written compactly: a turn prints only its non-default fields, so every field is pinned.
import { describe, expect, it } from 'vitest';
import { parseSsml } from './parse-ssml';
import { parseInput } from './parse-input';
import { describeSegments } from './corpus/corpus-harness';

const brief = describeSegments;

const golden = (ssml: string, options = {}) => brief(parseSsml(ssml, options).segments);

/** Documents whose segment list is the whole check: [test name, SSML, segments, parse options]. */
const GOLDEN_CASES: [name: string, ssml: string, expected: string[], options?: Parameters<typeof parseSsml>[1]][] = [
  [
    'keeps one turn across sentences and pauses between paragraphs',
    '<speak version="1.1" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en-US"><p><s>First  sentence.</s><s>Second\n sentence.</s></p><p>New paragraph.</p></speak>',
    ['turn0 "First sentence. Second sentence." lang=english', 'break 800ms', 'turn1 "New paragraph." lang=english'],
  ],
  [
    'splits turns at breaks and gives strengths their documented lengths',
    '<speak>One<break time="250ms"/>two<break strength="x-strong"/>three<break/>four<break time="1.5s"/>five</speak>',
    ['turn0 "One"', 'break 250ms', 'turn1 "two"', 'break 1200ms', 'turn2 "three"', 'break 500ms', 'turn3 "four"', 'break 1500ms', 'turn4 "five"'],
  ],
  [
    'treats strength none and time 0 as a word break, not a pause',
    '<speak>a<break strength="none"/>b<break time="0ms"/>c</speak>',
    ['turn0 "a b c"'],
  ],
  [
    'composes nested prosody: rates multiply, semitones and decibels add, keywords replace',
    '<speak><prosody rate="150%" pitch="+2st" volume="+3dB">a<prosody rate="-10%" pitch="-1st" volume="-6dB">b<prosody rate="x-slow" pitch="x-high" volume="soft">c</prosody></prosody></prosody></speak>',
    ['turn0 "a" rate=1.5 pitch=2 gain=3', 'turn1 "b" rate=1.35 pitch=1 gain=-3', 'turn2 "c" rate=0.6 pitch=4 gain=-6'],
  ],
  [
    'maps emphasis levels to prosody on top of the context',
    '<speak><prosody rate="2">I <emphasis level="strong">really</emphasis> <emphasis level="reduced">mean</emphasis> <emphasis>it</emphasis></prosody></speak>',
    ['turn0 "I" rate=2', 'turn1 "really" rate=1.8 pitch=1 gain=3', 'turn2 "mean" rate=2 pitch=-0.5 gain=-3', 'turn3 "it" rate=1.9 pitch=0.5 gain=1.5'],
  ],
  [
    'maps voice names to known speakers and descriptions to VoiceDesign prompts',
    '<speak>Narrator. <voice name="RYAN">Hi.</voice><voice description="a calm  elderly woman">Hello.</voice> Back.</speak>',
    ['turn0 "Narrator."', 'turn1 "Hi." voice=ryan', 'turn2 "Hello." design="a calm elderly woman"', 'turn3 "Back."'],
    { knownVoices: ['ryan', 'vivian'] },
  ],
  [
    'maps xml:lang and lang to model language names and merges equal contexts',
    '<speak xml:lang="en-GB">Hello <lang xml:lang="zh-CN">你好</lang> and <w xml:lang="en">more</w> text</speak>',
    ['turn0 "Hello" lang=english', 'turn1 "你好" lang=chinese', 'turn2 "and more text" lang=english'],
  ],
  [
    'expands say-as in English',
    '<speak xml:lang="en-US">Room <say-as interpret-as="cardinal">1024</say-as>, the <say-as interpret-as="ordinal">3rd</say-as>, code <say-as interpret-as="digits">0451</say-as>, <say-as interpret-as="characters">NASA</say-as>, <say-as interpret-as="date" format="dmy">05/03/2024</say-as> at <say-as interpret-as="time">9:05 pm</say-as>, call <say-as interpret-as="telephone">+44 20 7946 0018</say-as>.</speak>',
    ['turn0 "Room one thousand twenty-four, the third, code zero four five one, N A S A, March fifth, twenty twenty-four at nine oh five PM, call plus four four, two zero, seven nine four six, zero zero one eight." lang=english'],
  ],
  [
    'expands say-as in Chinese',
    '<speak xml:lang="zh-CN"><say-as interpret-as="cardinal">10086</say-as>，<say-as interpret-as="ordinal">2</say-as>，<say-as interpret-as="date">2024-10-01</say-as>，<say-as interpret-as="time">14:05</say-as>，<say-as interpret-as="telephone">138-0013-8000</say-as></speak>',
    ['turn0 "一万零八十六，第二，二零二四年十月一日，十四点零五分，幺三八，零零幺三，八零零零" lang=chinese'],
  ],
  [
    'reports marks inside a turn with their character offset and between segments on their own',
    '<speak><mark name="start"/>Hello <mark name="mid"/>world<break time="100ms"/><mark name="after-break"/>Bye<mark name="end"/></speak>',
    ['mark start', 'turn0 "Hello world"', 'mark mid @turn0+5', 'break 100ms', 'mark after-break', 'turn1 "Bye"', 'mark end @turn1+3'],
  ],
  [
    'returns audio as a segment with its fallback text and does not speak the fallback',
    '<speak>Before <audio src="clips/ding.wav"><desc>a bell</desc>ding</audio> after</speak>',
    ['turn0 "Before"', 'audio clips/ding.wav fallback="ding"', 'turn1 "after"'],
  ],
  [
    'ignores metadata content and accepts XML declarations, comments, CDATA and entities',
    '<?xml version="1.0" encoding="UTF-8"?>\n<!-- a comment --><speak><meta name="author" content="me"/><metadata>ignored words</metadata>Fish &amp; chips <![CDATA[<raw>]]> &#x41;</speak>',
    ['turn0 "Fish & chips <raw> A"'],
  ],
];

describe('parseSsml golden segment lists', () => {
  it.each(GOLDEN_CASES)('%s', (_name, ssml, expected, options) => {
    expect(golden(ssml, options)).toEqual(expected);
  });

  it('reads an unsigned rate percentage as an SSML 1.1 multiplier, and as a relative change in azure mode', () => {
    expect(golden('<speak><prosody rate="120%">x</prosody> <prosody rate="+30%">y</prosody> <prosody rate="1.1">z</prosody></speak>'))
      .toEqual(['turn0 "x" rate=1.2', 'turn1 "y" rate=1.3', 'turn2 "z" rate=1.1']);
    expect(golden('<speak><prosody rate="30%">x</prosody></speak>', { dialect: 'azure' })).toEqual(['turn0 "x" rate=1.3']);
  });

  it('converts pitch percentages and Hz to semitones', () => {
    const segments = parseSsml('<speak><prosody pitch="+100%">a</prosody><prosody pitch="-75Hz">b</prosody><prosody pitch="300Hz">c</prosody></speak>').segments;
    expect(segments.map((s) => (s.kind === 'turn' ? s.pitchSemitones : null))).toEqual([12, -12, 12]); // 2× = 12 st; 75/150 = ½ → −12 st; 300/150 = 2×
  });

  it('maps volume keywords, percentages and SSML 1.0 absolute levels to decibels', () => {
    const segments = parseSsml('<speak><prosody volume="silent">a</prosody><prosody volume="x-loud">b</prosody><prosody volume="50">c</prosody><prosody volume="+100%">d</prosody></speak>').segments;
    expect(segments.map((s) => (s.kind === 'turn' ? s.volumeGainDb : null))).toEqual([-120, 6, -6.0206, 6.0206]);
  });

  it('speaks sub aliases and phoneme text, warning that phonemes are ignored', () => {
    const result = parseSsml('<speak><sub alias="World Wide Web Consortium">W3C</sub> says <phoneme alphabet="ipa" ph="təˈmɑːtoʊ">tomato</phoneme></speak>');
    expect(brief(result.segments)).toEqual(['turn0 "World Wide Web Consortium says tomato"']);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatchObject({ element: 'phoneme', attribute: 'ph', line: 1 });
  });

  it('accepts Azure-style documents in lenient mode, keeping the text of vendor elements', () => {
    const doc = '<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xmlns:mstts="https://www.w3.org/2001/mstts" xml:lang="en-US"><voice name="en-US-JennyNeural"><mstts:express-as style="cheerful">Great news!</mstts:express-as></voice></speak>';
    const result = parseSsml(doc, { strict: false, knownVoices: ['ryan'] });
    expect(brief(result.segments)).toEqual(['turn0 "Great news!" lang=english']);
    expect(result.warnings.map((w) => w.element)).toEqual(['voice', 'mstts:express-as']);
  });

  it('treats plain text as one turn with the request defaults', () => {
    expect(brief(parseInput('  Just <some> text\n', 'text').segments)).toEqual(['turn0 "Just <some> text"']);
    expect(brief(parseInput('<speak>Marked <break time="1s"/> up</speak>', 'ssml').segments)).toEqual(['turn0 "Marked"', 'break 1000ms', 'turn1 "up"']);
  });
});
