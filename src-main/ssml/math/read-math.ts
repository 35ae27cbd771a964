/**
 * Reads a MathML tree (math-tree.ts) aloud in English or Chinese, as Azure documents MathML
 * reading ("a squared plus b squared equals c squared"): fractions, powers, subscripts, roots,
 * operators, identifiers and numbers, under/over scripts; parentheses are silent. Pure.
 */
import { chineseCardinal, englishCardinal, englishOrdinal } from '../number-words';
import { expandFraction } from '../say-as/fraction';
import type { MathNode } from './math-tree';
import { ACCENTS, FUNCTIONS, GREEK, OPERATORS } from './math-words';

type Item = MathNode | string;

export function readMath(node: MathNode, zh: boolean): string {
  return new MathReader(zh).read(node).replace(/\s+/g, ' ').replace(/\s+,/g, ',').trim();
}

class MathReader {
  constructor(private readonly zh: boolean) {}

  private join(parts: string[]): string {
    return parts.filter((p) => p !== '').join(this.zh ? '' : ' ');
  }

  private word(pair: readonly [string, string]): string {
    return this.zh ? pair[1] : pair[0];
  }

  read(item: Item | undefined): string {
    if (item === undefined) return '';
    if (typeof item === 'string') return item;
    const kids = item.children.filter((c): c is MathNode => typeof c !== 'string');
    const text = item.children.filter((c): c is string => typeof c === 'string').join(' ').trim();
    switch (item.name) {
      case 'mi': return this.identifier(text);
      case 'mn': return (this.zh ? chineseCardinal(text) : englishCardinal(text)) ?? text;
      case 'mo': return OPERATORS[text] ? this.word(OPERATORS[text]) : text;
      case 'mtext': case 'ms': return text;
      case 'mspace': case 'mphantom': case 'annotation': case 'annotation-xml': case 'none': return '';
      case 'semantics': return this.read(kids[0]);
      case 'mfrac': return this.fraction(kids[0], kids[1]);
      case 'msup': return this.power(this.read(kids[0]), kids[1]);
      case 'msub': return this.join([this.read(kids[0]), this.zh ? '下标' : 'sub', this.read(kids[1])]);
      case 'msubsup': return this.power(this.join([this.read(kids[0]), this.zh ? '下标' : 'sub', this.read(kids[1])]), kids[2]);
      case 'msqrt': return this.zh ? `根号${this.row(item)}` : `the square root of ${this.row(item)}`;
      case 'mroot': return this.root(kids[0], kids[1]);
      case 'munder': return this.under(kids[0], kids[1]);
      case 'mover': return this.over(kids[0], kids[1]);
      case 'munderover': return this.zh ? `${this.read(kids[0])}从${this.read(kids[1])}到${this.read(kids[2])}` : `${this.read(kids[0])} from ${this.read(kids[1])} to ${this.read(kids[2])}`;
      default: return this.row(item);
    }
  }

  /** A row: children in order; a leading minus is a sign ("negative x"). */
  private row(node: MathNode): string {
    const kids = node.children;
    return this.join(kids.map((k, i) => {
      const sign = i === 0 && typeof k !== 'string' && k.name === 'mo' && /^[-−]$/.test(String(k.children[0] ?? '').trim());
      return sign ? (this.zh ? '负' : 'negative') : this.read(k);
    }));
  }

  private identifier(text: string): string {
    if (GREEK[text]) return this.word(GREEK[text]);
    if (FUNCTIONS[text]) return this.word(FUNCTIONS[text]);
    return text;
  }

  private fraction(num: Item | undefined, den: Item | undefined): string {
    const simple = (n: Item | undefined) => (typeof n !== 'string' && n?.name === 'mn' && /^\d{1,6}$/.test(String(n.children[0] ?? '').trim()) ? String(n.children[0]).trim() : null);
    const [a, b] = [simple(num), simple(den)];
    if (a !== null && b !== null) return expandFraction(`${a}/${b}`, this.zh) ?? `${a}/${b}`;
    return this.zh ? `${this.read(den)}分之${this.read(num)}` : `${this.read(num)} over ${this.read(den)}`;
  }

  private power(base: string, exponent: Item | undefined): string {
    const e = this.read(exponent);
    const raw = typeof exponent !== 'string' ? String(exponent?.children[0] ?? '').trim() : exponent;
    if (raw === '′' || raw === "'") return this.zh ? `${base}的导数` : `${base} prime`;
    if (raw === '2') return this.zh ? `${base}的平方` : `${base} squared`;
    if (raw === '3') return this.zh ? `${base}的立方` : `${base} cubed`;
    return this.zh ? `${base}的${e}次方` : `${base} to the power of ${e}`;
  }

  private root(radicand: Item | undefined, index: Item | undefined): string {
    const raw = typeof index !== 'string' ? String(index?.children[0] ?? '').trim() : index;
    if (this.zh) return `${this.read(index)}次根号${this.read(radicand)}`;
    const degree = raw === '2' ? 'square' : raw === '3' ? 'cube' : /^\d+$/.test(raw) ? englishOrdinal(raw)! : `${this.read(index)}-th`;
    return `the ${degree} root of ${this.read(radicand)}`;
  }

  /** lim under x→0 is "the limit as x approaches zero"; other bases read "x under y". */
  private under(base: Item | undefined, under: Item | undefined): string {
    const b = this.read(base);
    if (b === this.word(FUNCTIONS.lim)) return this.zh ? `当${this.read(under)}时的极限` : `the limit as ${this.read(under)} of`;
    return this.join([b, this.zh ? '下方' : 'under', this.read(under)]);
  }

  private over(base: Item | undefined, over: Item | undefined): string {
    const raw = typeof over !== 'string' ? String(over?.children[0] ?? '').trim() : over;
    const accent = ACCENTS[raw];
    if (accent && raw === '→') return this.zh ? `向量${this.read(base)}` : `vector ${this.read(base)}`;
    if (accent) return this.join([this.read(base), this.word(accent)]);
    return this.join([this.read(base), this.zh ? '上方' : 'over', this.read(over)]);
  }
}
