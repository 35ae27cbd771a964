/**
 * Collects the MathML inside <math> (Azure) as a small tree while the SSML parser streams, and
 * says which MathML elements the studio reads aloud. Elementary-math layout (mstack, mlongdiv…)
 * Azure does not read either; tables and scripts the studio does not read yet are refused by
 * the parser with a message naming the element. No I/O.
 */

export interface MathNode {
  name: string;
  attrs: Record<string, string>;
  children: (MathNode | string)[];
}

/** Elements read aloud (read-math.ts); semantics reads its first child, annotations are silent. */
export const MATHML_READ = new Set([
  'math', 'mrow', 'mi', 'mn', 'mo', 'mtext', 'ms', 'mspace', 'mfrac', 'msup', 'msub', 'msubsup', 'msqrt', 'mroot', 'mfenced', 'mstyle', 'mpadded',
  'mphantom', 'menclose', 'munder', 'mover', 'munderover', 'semantics', 'annotation', 'annotation-xml', 'none',
]);

/** MathML elements the studio does not read, with why (for the message that names them). */
export const MATHML_REFUSED: Readonly<Record<string, string>> = {
  mstack: 'elementary-math layout, which Azure does not read either', mlongdiv: 'elementary-math layout, which Azure does not read either',
  msgroup: 'elementary-math layout, which Azure does not read either', msrow: 'elementary-math layout, which Azure does not read either',
  mscarries: 'elementary-math layout, which Azure does not read either', mscarry: 'elementary-math layout, which Azure does not read either',
  msline: 'elementary-math layout, which Azure does not read either',
  mtable: 'tables and matrices are not read by the studio', mtr: 'tables and matrices are not read by the studio', mlabeledtr: 'tables and matrices are not read by the studio', mtd: 'tables and matrices are not read by the studio',
  mmultiscripts: 'prescripts are not read by the studio', mprescripts: 'prescripts are not read by the studio',
  maction: 'interactive MathML is not read by the studio', merror: 'error boxes are not read by the studio', mglyph: 'glyph images have no spoken form',
  maligngroup: 'alignment marks have no spoken form', malignmark: 'alignment marks have no spoken form',
};

/** Builds the tree from the parser's open, text and close events, below one <math>. */
export class MathTreeBuilder {
  readonly root: MathNode;
  private readonly open: MathNode[];

  constructor(attrs: Record<string, string>) {
    this.root = { name: 'math', attrs, children: [] };
    this.open = [this.root];
  }

  openElement(name: string, attrs: Record<string, string>): void {
    const node: MathNode = { name: localName(name), attrs, children: [] };
    this.top().children.push(node);
    this.open.push(node);
  }

  text(text: string): void {
    if (text.trim() !== '') this.top().children.push(text.trim());
  }

  closeElement(): void {
    if (this.open.length > 1) this.open.pop();
  }

  private top(): MathNode {
    return this.open[this.open.length - 1];
  }
}

/** m:mfrac → mfrac (a prefixed MathML namespace). */
export function localName(name: string): string {
  return name.includes(':') ? name.slice(name.indexOf(':') + 1) : name;
}
