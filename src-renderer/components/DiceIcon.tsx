/**
 * The dice on the random-seed buttons (Voice and Speak screens): a die showing five, drawn as
 * inline SVG so it looks the same everywhere. Presentational.
 */
/** A die showing five, drawn inline (emoji glyphs are missing on many Linux desktops and in headless Chromium). */
export function DiceIcon() {
  const pips: [number, number][] = [[5.5, 5.5], [12.5, 5.5], [9, 9], [5.5, 12.5], [12.5, 12.5]];
  return (
    <svg width="18" height="18" viewBox="0 0 18 18" aria-hidden="true" focusable="false" data-testid="dice-icon">
      <rect x="1.5" y="1.5" width="15" height="15" rx="3" fill="none" stroke="currentColor" strokeWidth="1.5" />
      {pips.map(([cx, cy]) => (
        <circle key={`${cx}-${cy}`} cx={cx} cy={cy} r="1.4" fill="currentColor" />
      ))}
    </svg>
  );
}
