/**
 * Numbers as words for say-as, in English and Chinese: cardinals (integers up to 10^15 − 1,
 * signs, decimals), ordinals, and digit-by-digit readings. Input is a digit string so large
 * values stay exact. Pure.
 */

const EN_ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const EN_TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const EN_SCALES = ['', 'thousand', 'million', 'billion', 'trillion'];
const ZH_DIGITS = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
const ZH_UNITS = ['', '十', '百', '千'];
const ZH_GROUPS = ['', '万', '亿', '万亿'];

export const MAX_INTEGER_DIGITS = 15;
const NUMBER = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** Parses "−1,234.5"-style input (commas between digit groups allowed); null if not a number. */
export function parseNumberText(text: string): { negative: boolean; integer: string; fraction: string } | null {
  const compact = text.trim().replace(/(\d),(?=\d{3}\b)/g, '$1').replace(/^−/, '-');
  const m = NUMBER.exec(compact);
  if (!m) return null;
  const integer = m[2].replace(/^0+(?=\d)/, '');
  if (integer.length > MAX_INTEGER_DIGITS) return null;
  return { negative: m[1] === '-', integer, fraction: m[3] ?? '' };
}

function englishBelowThousand(n: number): string {
  const parts: string[] = [];
  if (n >= 100) {
    parts.push(`${EN_ONES[Math.floor(n / 100)]} hundred`);
    n %= 100;
  }
  if (n >= 20) parts.push(EN_TENS[Math.floor(n / 10)] + (n % 10 ? `-${EN_ONES[n % 10]}` : ''));
  else if (n > 0) parts.push(EN_ONES[n]);
  return parts.join(' ');
}

/** Non-negative integer digit string → English words ("1200" → "one thousand two hundred"). */
export function englishInteger(digits: string): string {
  if (/^0+$/.test(digits)) return 'zero';
  const groups: number[] = [];
  for (let end = digits.length; end > 0; end -= 3) groups.push(Number(digits.slice(Math.max(0, end - 3), end)));
  const words: string[] = [];
  for (let g = groups.length - 1; g >= 0; g--) {
    if (groups[g] === 0) continue;
    words.push(englishBelowThousand(groups[g]) + (EN_SCALES[g] ? ` ${EN_SCALES[g]}` : ''));
  }
  return words.join(' ');
}

export function englishDigits(digits: string): string {
  return [...digits].map((d) => EN_ONES[Number(d)]).join(' ');
}

/** A number text (sign, integer, decimals) in words: integer(…), then fraction(decimals) if any, then negative(words) if signed. */
function cardinal(text: string, integer: (digits: string) => string, fraction: (digits: string) => string, negative: (words: string) => string): string | null {
  const n = parseNumberText(text);
  if (!n) return null;
  const words = integer(n.integer) + (n.fraction ? fraction(n.fraction) : '');
  return n.negative ? negative(words) : words;
}

export function englishCardinal(text: string): string | null {
  return cardinal(text, englishInteger, (decimals) => ` point ${englishDigits(decimals)}`, (words) => `minus ${words}`);
}

const EN_ORDINAL_IRREGULAR: Record<string, string> = { one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth' };

/** "21", "21st" → "twenty-first". */
export function englishOrdinal(text: string): string | null {
  const m = /^(\d+)(st|nd|rd|th)?$/i.exec(text.trim());
  if (!m || m[1].length > MAX_INTEGER_DIGITS) return null;
  const words = englishInteger(m[1]);
  const cut = Math.max(words.lastIndexOf(' '), words.lastIndexOf('-')) + 1;
  const last = words.slice(cut);
  const ordinal = EN_ORDINAL_IRREGULAR[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return words.slice(0, cut) + ordinal;
}

function chineseGroup(n: number): string {
  let out = '';
  let zeroPending = false;
  for (let pos = 3; pos >= 0; pos--) {
    const d = Math.floor(n / 10 ** pos) % 10;
    if (d === 0) {
      if (out) zeroPending = true;
      continue;
    }
    if (zeroPending) out += '零';
    zeroPending = false;
    out += ZH_DIGITS[d] + ZH_UNITS[pos];
  }
  return out;
}

/** Non-negative integer digit string → Chinese numerals ("10010" → "一万零一十", "15" → "十五"). */
export function chineseInteger(digits: string): string {
  if (/^0+$/.test(digits)) return '零';
  const groups: number[] = [];
  for (let end = digits.length; end > 0; end -= 4) groups.push(Number(digits.slice(Math.max(0, end - 4), end)));
  let out = '';
  let zeroPending = false;
  for (let g = groups.length - 1; g >= 0; g--) {
    const value = groups[g];
    if (value === 0) {
      if (out) zeroPending = true;
      continue;
    }
    // A zero is read where a lower group does not fill its thousands place (一万零五百).
    if (out && (zeroPending || value < 1000)) out += '零';
    zeroPending = false;
    out += chineseGroup(value) + ZH_GROUPS[g];
  }
  return out.startsWith('一十') ? out.slice(1) : out;
}

export function chineseDigits(digits: string, one = '一'): string {
  return [...digits].map((d) => (d === '1' ? one : ZH_DIGITS[Number(d)])).join('');
}

export function chineseCardinal(text: string): string | null {
  return cardinal(text, chineseInteger, (decimals) => `点${chineseDigits(decimals)}`, (words) => `负${words}`);
}

/** "3" → "第三". */
export function chineseOrdinal(text: string): string | null {
  const m = /^第?(\d+)$/.exec(text.trim());
  if (!m || m[1].length > MAX_INTEGER_DIGITS) return null;
  return `第${chineseInteger(m[1])}`;
}
