// @vitest-environment jsdom
// The SSML editor's colours meet WCAG AA (4.5:1) in light and dark: every token colour of each
// palette against the backgrounds it is drawn on (editor, active line, selection), the gutter's
// numbers, and — in the rendered editor — the colour each token of a document actually gets
// against the background the editor actually paints (the page's --bg when it paints none).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { SsmlEditor } from './SsmlEditor';
import { EDITOR_PALETTES, type ColourScheme } from './ssml-editor-theme';
import { WCAG_AA_TEXT_RATIO, contrastRatio, parseColour } from './colour-contrast';

const SCHEMES: ColourScheme[] = ['light', 'dark'];
/** Tag names, attribute names and values, an entity, a comment, a processing instruction. */
const DOC = '<?xml version="1.0"?>\n<speak>\n  <voice name="ryan">Tom &amp; Jerry</voice>\n  <!-- a comment -->\n</speak>';

function opaque(colour: string): boolean {
  const alpha = /^rgba\([^)]*,\s*([\d.]+)\s*\)$/.exec(colour.trim());
  return colour !== 'transparent' && colour !== '' && (!alpha || Number(alpha[1]) === 1);
}

describe('SSML editor colours', () => {
  afterEach(() => {
    cleanup();
    delete document.documentElement.dataset.theme;
  });

  it.each(SCHEMES)('%s palette: every token, the text and the gutter reach 4.5:1 on their backgrounds', (scheme) => {
    const p = EDITOR_PALETTES[scheme];
    const low: string[] = [];
    const check = (what: string, fg: string, bg: string) => {
      const ratio = contrastRatio(fg, bg);
      if (ratio < WCAG_AA_TEXT_RATIO) low.push(`${what} ${fg} on ${bg}: ${ratio.toFixed(2)}:1`);
    };
    for (const [name, colour] of Object.entries({ text: p.foreground, ...p.tokens })) {
      check(`${name} on the background`, colour, p.background);
      check(`${name} on the active line`, colour, p.activeLine);
      check(`${name} on the selection`, colour, p.selection);
    }
    check('line numbers', p.gutterForeground, p.gutterBackground);
    expect(low).toEqual([]);
  });

  it.each(SCHEMES)('%s: the rendered editor draws every token at 4.5:1 or more against its own background', (scheme) => {
    document.documentElement.dataset.theme = scheme;
    const { container } = render(<SsmlEditor value={DOC} format="ssml" diagnostics={[]} voiceNames={['ryan']} onChange={() => {}} onSubmit={() => {}} />);
    const painted = getComputedStyle(container.querySelector('.cm-editor')!).backgroundColor;
    // Painting none, the page's --bg shows through: the palette's background is that (app.css).
    const background = opaque(painted) ? painted : EDITOR_PALETTES[scheme].background;
    const tokens = Array.from(container.querySelectorAll<HTMLElement>('.cm-line span')).filter((el) => el.textContent?.trim());
    expect(tokens.length).toBeGreaterThan(5); // the document is highlighted at all
    const low = tokens
      .map((el) => ({ text: el.textContent!, colour: getComputedStyle(el).color }))
      .filter((t) => opaque(t.colour) && parseColour(t.colour))
      .map((t) => ({ ...t, ratio: contrastRatio(t.colour, background) }))
      .filter((t) => t.ratio < WCAG_AA_TEXT_RATIO)
      .map((t) => `'${t.text}' ${t.colour} on ${background}: ${t.ratio.toFixed(2)}:1`);
    expect(low).toEqual([]);
  });
});
