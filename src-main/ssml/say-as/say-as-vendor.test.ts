// say-as as each vendor documents it: the vendors' own examples give the vendors' own words
// (compared as words: case, hyphens and punctuation aside), in English and Chinese; a value a
// dialect does not document is an error in strict mode and read as written, with a warning that
// says so, in lenient mode.
import { describe, expect, it } from 'vitest';
import { StudioError } from '../../../src-shared/errors';
import type { SsmlDialect } from '../../../src-shared/synthesis';
import { parseSsml } from '../parse-ssml';

function read(ssml: string, dialect: SsmlDialect, lenient = false): { text: string; warnings: string[] } {
  const r = parseSsml(`<speak>${ssml}</speak>`, { dialect, strict: !lenient });
  return { text: r.segments.flatMap((s) => (s.kind === 'turn' ? [s.text] : [])).join(' '), warnings: r.warnings.map((w) => w.message) };
}
const words = (s: string) => s.toLowerCase().replace(/-/g, ' ').replace(/[^\p{L}\p{N}'\s]/gu, ' ').split(/\s+/).filter(Boolean).join(' ');
const spoken = (ssml: string, dialect: SsmlDialect) => words(read(ssml, dialect).text);
const zh = (ssml: string, dialect: SsmlDialect = 'ssml11') => read(`<lang xml:lang="zh-CN">${ssml}</lang>`, dialect).text;

describe('Azure say-as (speech-synthesis-markup-pronunciation, say-as table)', () => {
  it.each([
    ['<say-as interpret-as="characters">test</say-as>', 'T E S T'],
    ['There are <say-as interpret-as="cardinal">10</say-as> options', 'There are ten options'],
    ['Select the <say-as interpret-as="ordinal">3rd</say-as> option', 'Select the third option'],
    ['<say-as interpret-as="fraction">3/8</say-as> of an inch', 'three eighths of an inch'],
    ['Today is <say-as interpret-as="date" format="dmy">10-12-2016</say-as>', 'Today is December tenth twenty sixteen'],
    ['The train departs at <say-as interpret-as="time" format="hms12">4:00am</say-as>', 'The train departs at four AM'],
    ['<say-as interpret-as="duration">01:18:30</say-as>', 'one hour eighteen minutes and thirty seconds'],
    ['<say-as interpret-as="duration" format="ms">01:18</say-as>', 'one minute and eighteen seconds'],
    ['<say-as interpret-as="currency">99.9 USD</say-as>', 'ninety-nine US dollars and ninety cents'],
    ["I'm at <say-as interpret-as=\"address\">150th CT NE, Redmond, WA</say-as>", "I'm at 150th Court Northeast Redmond Washington"],
    ['<say-as interpret-as="name">ED</say-as>', 'ED'],
    ['<say-as interpret-as="date" format="mdy"> 10/19/2010 </say-as>, at <say-as interpret-as="time" format="hms12"> 12:35pm </say-as>', 'October nineteenth twenty ten at twelve thirty five PM'],
  ])('%s', (ssml, documented) => {
    expect(spoken(ssml, 'azure')).toBe(words(documented));
  });

  it('reads duration formats hm and hms, and leaves zero fields out', () => {
    expect(spoken('<say-as interpret-as="duration" format="hm">2:05</say-as>', 'azure')).toBe('two hours and five minutes');
    expect(spoken('<say-as interpret-as="duration">1:00:01</say-as>', 'azure')).toBe('one hour and one second');
  });
});

describe('Google say-as (cloud.google.com/text-to-speech/docs/ssml)', () => {
  it.each([
    ['<say-as interpret-as="currency" language="en-US">$42.01</say-as>', 'forty-two dollars and one cent'],
    ['<say-as interpret-as="unit">10 foot</say-as>', 'ten feet'],
    ['<say-as interpret-as="date" format="yyyymmdd" detail="1">1960-09-10</say-as>', 'The tenth of September, nineteen sixty'],
    ['<say-as interpret-as="date" format="dm">10-9</say-as>', 'The tenth of September'],
    ['<say-as interpret-as="date" format="dmy" detail="2">10-9-1960</say-as>', 'September tenth, nineteen sixty'],
    ['<say-as interpret-as="time" format="hms12">2:30pm</say-as>', 'two thirty PM'],
    ['<say-as interpret-as="fraction">5+1/2</say-as>', 'five and a half'],
    ['<say-as interpret-as="verbatim">abcdefg</say-as>', 'A B C D E F G'],
  ])('%s', (ssml, documented) => {
    expect(spoken(ssml, 'google')).toBe(words(documented));
  });

  it('reads date codes with digit counts, with or without separators', () => {
    expect(spoken('<say-as interpret-as="date" format="yyyymmdd">19600910</say-as>', 'google')).toBe(words('September tenth, nineteen sixty'));
    expect(spoken('<say-as interpret-as="date" format="ddmmyyyy">10091960</say-as>', 'google')).toBe(words('September tenth, nineteen sixty'));
    expect(spoken('<say-as interpret-as="date" format="mmdd" detail="2">0910</say-as>', 'google')).toBe(words('September tenth'));
  });

  it('rejects a detail Google does not define', () => {
    expect(() => read('<say-as interpret-as="date" format="dmy" detail="3">10-9-1960</say-as>', 'google')).toThrow(/detail '3'/);
  });
});

describe('Amazon Polly say-as (docs.aws.amazon.com/polly/latest/dg/say-as-tag.html)', () => {
  it.each([
    ['<say-as interpret-as="time">1\'21"</say-as>', 'one minute twenty-one seconds'],
    ['<say-as interpret-as="time">2\'</say-as>', 'two minutes'],
    ['<say-as interpret-as="unit">1/2inch</say-as>', 'one half inch'],
    ['<say-as interpret-as="unit">1meter</say-as>', 'one meter'],
    ['<say-as interpret-as="fraction">3/20</say-as>', 'three twentieths'],
    ['<say-as interpret-as="fraction">2½</say-as>', 'two and a half'],
    ['<say-as interpret-as="fraction">3+1/2</say-as>', 'three and a half'],
    ['<say-as interpret-as="fraction">2/9</say-as>', 'two ninths'],
    ['<say-as interpret-as="fraction">2+3/4</say-as>', 'two and three quarters'],
    ['<say-as interpret-as="date" format="yyyymmdd">????0922</say-as>', 'September twenty-second'],
    ['<say-as interpret-as="digits">1234</say-as>', 'one two three four'],
    ['<say-as interpret-as="telephone">2025551212x345</say-as>', 'two zero two five five five one two one two extension three four five'],
    ['I was born on <say-as interpret-as="date" format="mdy">12-31-1900</say-as>', 'I was born on December thirty-first nineteen hundred'],
  ])('%s', (ssml, documented) => {
    expect(spoken(ssml, 'polly')).toBe(words(documented));
  });

  it.each([
    ['mdy', '09/22/2017', 'September twenty-second twenty seventeen'],
    ['dmy', '22.09.2017', 'September twenty-second twenty seventeen'],
    ['ymd', '2017 09 22', 'September twenty-second twenty seventeen'],
    ['md', '9-22', 'September twenty-second'],
    ['dm', '22/9', 'September twenty-second'],
    ['ym', '2017-09', 'September twenty seventeen'],
    ['my', '09/2017', 'September twenty seventeen'],
    ['d', '22', 'the twenty-second'],
    ['m', '9', 'September'],
    ['y', '2017', 'twenty seventeen'],
    ['yyyymmdd', '20170922', 'September twenty-second twenty seventeen'],
  ])('reads date format %s (%s)', (format, text, documented) => {
    expect(spoken(`<say-as interpret-as="date" format="${format}">${text}</say-as>`, 'polly')).toBe(words(documented));
  });
});

describe('English plural rules and money', () => {
  it.each([
    ['1 km', 'one kilometer'], ['2 km', 'two kilometers'], ['0 kg', 'zero kilograms'], ['1.5 lb', 'one point five pounds'],
    ['2 1/2 inches', 'two and a half inches'], ['1+1/8 in', 'one and an eighth inches'], ['3 ft', 'three feet'], ['25°C', 'twenty-five degrees Celsius'], ['120 km/h', 'one hundred twenty kilometers per hour'],
  ])('unit %s', (text, documented) => {
    expect(spoken(`<say-as interpret-as="unit">${text}</say-as>`, 'google')).toBe(words(documented));
  });

  it.each([
    ['$1', 'one dollar'], ['$0.50', 'fifty cents'], ['€3.01', 'three euros and one cent'], ['£2.50', 'two pounds and fifty pence'],
    ['USD 1,250', 'one thousand two hundred fifty US dollars'], ['¥500', 'five hundred yen'], ['-$5', 'minus five dollars'],
  ])('currency %s', (text, documented) => {
    expect(spoken(`<say-as interpret-as="currency">${text}</say-as>`, 'azure')).toBe(words(documented));
  });

  it('expands street types, directions, units, states and reads ZIP codes digit by digit', () => {
    expect(spoken('<say-as interpret-as="address">1310 Villa St Apt 4, Mountain View, CA 94041</say-as>', 'azure')).toBe(words('1310 Villa Street Apartment 4 Mountain View California nine four zero four one'));
    expect(spoken('<say-as interpret-as="address">St James Pl</say-as>', 'polly')).toBe(words('Saint James Place'));
  });
});

describe('Chinese readings', () => {
  it.each([
    ['<say-as interpret-as="currency">¥42.01</say-as>', '四十二元零一分'],
    ['<say-as interpret-as="currency">3.5元</say-as>', '三元五角'],
    ['<say-as interpret-as="currency">99.9 USD</say-as>', '九十九美元九十美分'],
    ['<say-as interpret-as="duration">01:18:30</say-as>', '一小时十八分钟三十秒'],
    ['<say-as interpret-as="time">1\'21"</say-as>', '一分钟二十一秒'],
    ['<say-as interpret-as="unit">2 km</say-as>', '两公里'],
    ['<say-as interpret-as="unit">10 foot</say-as>', '十英尺'],
    ['<say-as interpret-as="unit">50%</say-as>', '百分之五十'],
    ['<say-as interpret-as="date" format="dmy">10-9-1960</say-as>', '一九六零年九月十日'],
    ['<say-as interpret-as="date" format="ym">2024/3</say-as>', '二零二四年三月'],
    ['<say-as interpret-as="address">建国路88号502室</say-as>', '建国路八十八号五零二室'],
    ['<say-as interpret-as="fraction">2½</say-as>', '二又二分之一'],
  ])('%s', (ssml, expected) => {
    expect(zh(ssml)).toBe(expected);
  });
});

describe('values a dialect does not document', () => {
  it('are an error in strict mode that names the dialects that document them', () => {
    const err = (() => {
      try {
        read('Pay <say-as interpret-as="currency">$5</say-as>', 'polly');
      } catch (e) {
        return e as StudioError;
      }
      throw new Error('no error');
    })();
    expect(err.code).toBe('ssml-invalid');
    expect(err.message).toMatch(/'currency' is not documented by Amazon Polly \(Azure and Google Cloud TTS document it\)/);
  });

  it.each([
    ['polly', '<say-as interpret-as="currency">$5</say-as>', '$5', /'currency' is not documented by Amazon Polly/],
    ['google', '<say-as interpret-as="duration">01:18</say-as>', '01:18', /'duration' is not documented by Google Cloud TTS \(Azure documents it\)/],
    ['google', '<say-as interpret-as="address">150th CT NE</say-as>', '150th CT NE', /'address' is not documented by Google Cloud TTS/],
    ['azure', '<say-as interpret-as="unit">10 foot</say-as>', '10 foot', /'unit' is not documented by Azure/],
    ['polly', '<say-as interpret-as="date" format="ydm">2017-22-09</say-as>', '2017-22-09', /format 'ydm' is not a date format in Amazon Polly/],
    ['polly', '<say-as interpret-as="time" format="hms24">14:05</say-as>', '14:05', /Amazon Polly documents no format for it/],
  ] as const)('are read as written with a warning in lenient mode (%s: %s)', (dialect, ssml, written, warning) => {
    const r = read(ssml, dialect, true);
    expect(r.text).toBe(written);
    expect(r.warnings.some((w) => warning.test(w))).toBe(true);
  });

  it('are all read in W3C SSML 1.1, which leaves the values to the processor', () => {
    expect(spoken('<say-as interpret-as="currency">$5</say-as> <say-as interpret-as="unit">1 km</say-as>', 'ssml11')).toBe('five dollars one kilometer');
  });
});
