// Azure's MathML read aloud: the vendor's example gives the vendor's words, and each construct
// (fractions, powers, roots, operators, identifiers, numbers, scripts) reads in English and
// Chinese; MathML the studio cannot read is refused with a message naming the element.
import { describe, expect, it } from 'vitest';
import { StudioError } from '../../../src-shared/errors';
import { parseSsml } from '../parse-ssml';

const speak = (math: string, lang = 'en-US', lenient = false) => {
  const r = parseSsml(`<speak xml:lang="${lang}"><math xmlns="http://www.w3.org/1998/Math/MathML">${math}</math></speak>`, { strict: !lenient, dialect: 'azure' });
  return { text: r.segments.flatMap((s) => (s.kind === 'turn' ? [s.text] : [])).join(' '), warnings: r.warnings.map((w) => w.message) };
};
const en = (math: string) => speak(math).text;
const zh = (math: string) => speak(math, 'zh-CN').text;

describe('MathML read aloud', () => {
  it("reads Azure's example as Azure documents it", () => {
    // learn.microsoft.com/azure/ai-services/speech-service/speech-synthesis-markup-pronunciation#mathml-examples
    const doc = `<speak version='1.0' xmlns='http://www.w3.org/2001/10/synthesis' xmlns:mstts='http://www.w3.org/2001/mstts' xml:lang='en-US'>
    <voice name='en-US-JennyNeural'>
        <math xmlns='http://www.w3.org/1998/Math/MathML'>
            <msup><mi>a</mi><mn>2</mn></msup>
            <mo>+</mo>
            <msup><mi>b</mi><mn>2</mn></msup>
            <mo>=</mo>
            <msup><mi>c</mi><mn>2</mn></msup>
        </math>
    </voice>
</speak>`;
    const r = parseSsml(doc);
    expect(r.dialect).toBe('azure');
    expect(r.segments).toMatchObject([{ kind: 'turn', text: 'a squared plus b squared equals c squared' }]);
  });

  it.each([
    ['<mfrac><mn>3</mn><mn>8</mn></mfrac>', 'three eighths', '八分之三'],
    ['<mfrac><mi>a</mi><mi>b</mi></mfrac>', 'a over b', 'b分之a'],
    ['<msup><mi>x</mi><mn>3</mn></msup>', 'x cubed', 'x的立方'],
    ['<msup><mi>e</mi><mi>n</mi></msup>', 'e to the power of n', 'e的n次方'],
    ['<msqrt><mn>2</mn></msqrt>', 'the square root of two', '根号二'],
    ['<mroot><mn>8</mn><mn>3</mn></mroot>', 'the cube root of eight', '三次根号八'],
    ['<mroot><mi>x</mi><mn>5</mn></mroot>', 'the fifth root of x', '五次根号x'],
    ['<msub><mi>x</mi><mn>1</mn></msub><mo>≠</mo><mn>0</mn>', 'x sub one is not equal to zero', 'x下标一不等于零'],
    ['<mrow><mn>2</mn><mi>π</mi><mi>r</mi></mrow>', 'two pi r', '二派r'],
    ['<mo>-</mo><mn>1.5</mn><mo>×</mo><mn>4</mn><mo>÷</mo><mn>2</mn>', 'negative one point five times four divided by two', '负一点五乘四除以二'],
    ['<mfenced><mi>a</mi><mo>+</mo><mi>b</mi></mfenced><mo>≤</mo><mi>c</mi>', 'a plus b is less than or equal to c', 'a加b小于等于c'],
    ['<munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><mi>i</mi>', 'the sum from i equals one to n i', '求和从i等于一到ni'],
    ['<mover><mi>x</mi><mo>¯</mo></mover>', 'x bar', 'x拔'],
    ['<semantics><mi>y</mi><annotation encoding="TeX">y</annotation></semantics>', 'y', 'y'],
  ])('%s', (math, english, chinese) => {
    expect(en(math)).toBe(english);
    expect(zh(math)).toBe(chinese);
  });

  it('reads the quadratic formula', () => {
    const formula = '<mi>x</mi><mo>=</mo><mfrac><mrow><mo>-</mo><mi>b</mi><mo>±</mo><msqrt><msup><mi>b</mi><mn>2</mn></msup><mo>-</mo><mn>4</mn><mi>a</mi><mi>c</mi></msqrt></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac>';
    expect(en(formula)).toBe('x equals negative b plus or minus the square root of b squared minus four a c over two a');
    expect(zh(formula)).toBe('x等于二a分之负b正负根号b的平方减四ac');
  });

  it('refuses MathML it cannot read, naming the element at its position (strict)', () => {
    let err: StudioError | null = null;
    try {
      speak('<mstack><mn>12</mn></mstack>');
    } catch (e) {
      err = e as StudioError;
    }
    expect(err?.code).toBe('ssml-invalid');
    // '<speak xml:lang="en-US">' is 24 characters and the <math …> tag 49, so <mstack> starts at column 74
    expect(err?.details).toMatchObject({ element: 'mstack', line: 1, column: 74 });
    expect(err?.message).toContain('<mstack> is MathML the studio cannot read aloud (elementary-math layout, which Azure does not read either)');
    expect(() => speak('<mtable><mtr><mtd><mn>1</mn></mtd></mtr></mtable>')).toThrow(/<mtable> is MathML the studio cannot read aloud \(tables and matrices/);
    expect(() => speak('<mfoo>x</mfoo>')).toThrow(/<mfoo> is not a MathML element/);
  });

  it('reads refused MathML as its content, with a warning naming it (lenient)', () => {
    const r = speak('<mtable><mtr><mtd><mn>1</mn></mtd></mtr></mtable>', 'en-US', true);
    expect(r.text).toBe('one');
    expect(r.warnings[0]).toMatch(/^<mtable> is MathML the studio cannot read aloud/);
  });

  it('belongs to Azure: auto detects it, another explicit dialect refuses it', () => {
    expect(parseSsml('<speak><math><mn>1</mn></math></speak>').dialect).toBe('azure');
    expect(() => parseSsml('<speak><math><mn>1</mn></math></speak>', { dialect: 'polly' })).toThrow(/<math> is a Azure element/);
  });
});
