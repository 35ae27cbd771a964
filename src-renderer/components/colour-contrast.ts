/**
 * WCAG 2.x contrast between two colours: relative luminance of sRGB and the (L1 + 0.05) / (L2 + 0.05)
 * ratio (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio); AA asks 4.5:1 for text. Reads #rgb,
 * #rrggbb and rgb()/rgba() (alpha ignored: give opaque colours). Pure.
 */

/** WCAG AA for normal-size text. */
export const WCAG_AA_TEXT_RATIO = 4.5;

export function parseColour(text: string): [number, number, number] {
  const t = text.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(t);
  if (hex) {
    const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join('') : hex[1];
    return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
  }
  const rgb = /^rgba?\(\s*(\d+(?:\.\d+)?)[\s,]+(\d+(?:\.\d+)?)[\s,]+(\d+(?:\.\d+)?)/.exec(t);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  throw new Error(`'${text}' is not a colour this reads; give #rgb, #rrggbb or rgb(r, g, b)`);
}

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance(colour: string): number {
  const [r, g, b] = parseColour(colour);
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
