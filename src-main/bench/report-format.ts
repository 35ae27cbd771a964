/**
 * Number and text formatting shared by the Markdown and HTML reports, matching the reference
 * report: req/s to 4 decimals, means to 3, seconds to 3, GPU % to 1, VRAM whole MiB, signed % changes.
 * Missing values print as '—'. Pure.
 */

export const DASH = '—';

export function fixed(value: number | null | undefined, digits: number): string {
  return value === null || value === undefined || !Number.isFinite(value) ? DASH : value.toFixed(digits);
}

export function signedPct(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return DASH;
  const pct = fraction * 100;
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(2)}%`;
}

export function seconds(valueMs: number | null | undefined): string {
  return valueMs === null || valueMs === undefined ? DASH : fixed(valueMs / 1000, 3);
}

export function pyBool(value: boolean): string {
  return value ? 'True' : 'False';
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Markdown table cell: no pipes or newlines. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
