/**
 * say-as date: every format the vendors document, read in English or Chinese. Field orders as
 * letters (Polly/Azure/W3C: mdy dmy ymd ydm md dm ym my d m y), digit-count codes (Google:
 * yyyymmdd, ddmmyyyy, dm…, with or without separators) and Google's detail 1|2 spoken forms.
 * Polly's ? masks a field (????0922). Calendar-checked; null when the text does not fit. Pure.
 */
import { chineseDigits, chineseInteger, englishInteger, englishOrdinal } from '../number-words';

export const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Separators between date fields, Chinese 年月日 included. */
const SEPARATORS = /[\s\-/.,年月日号]+/;

export interface DateOptions {
  format: string | null;
  /** Google: '1' → "the tenth of September, 1960"; '2' → "September tenth, 1960". null: the dialect's default. */
  detail: string | null;
  /** Google reads a date with fewer than three fields with detail 1 by default. */
  googleDefaults: boolean;
}

interface Field {
  key: 'y' | 'm' | 'd';
  /** Expected digits when the text has no separators (Google: y → 4, m → 2, d → 2 when written once). */
  numDigits: number;
}

/** 'mdy' → m,d,y; 'yyyymmdd' → y(4),m(2),d(2); null when the code repeats a field or has other letters. */
export function dateFields(format: string): Field[] | null {
  if (!/^[ymd]+$/.test(format)) return null;
  const runs = format.match(/y+|m+|d+/g)!;
  const keys = runs.map((r) => r[0]);
  if (new Set(keys).size !== keys.length) return null;
  return runs.map((r) => ({ key: r[0] as Field['key'], numDigits: r.length > 1 ? r.length : r[0] === 'y' ? 4 : 2 }));
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function monthNumber(part: string): number | null {
  if (/^\d{1,2}$/.test(part)) return Number(part);
  const i = EN_MONTHS.findIndex((m) => part.length >= 3 && m.toLowerCase().startsWith(part.toLowerCase().replace(/\.$/, '')));
  return i < 0 ? null : i + 1;
}

function splitParts(text: string, fields: Field[]): string[] | null {
  const parts = text.split(SEPARATORS).filter(Boolean);
  if (parts.length === fields.length) return parts;
  if (parts.length !== 1 || !/^[\d?]+$/.test(text)) return null;
  // Written without separators: cut by each field's digit count.
  if (fields.reduce((n, f) => n + f.numDigits, 0) !== text.length) return null;
  let at = 0;
  return fields.map((f) => text.slice(at, (at += f.numDigits)));
}

function defaultFields(parts: string[]): Field[] {
  const order = parts.length === 3 ? (parts[0].length === 4 ? 'ymd' : 'mdy') : parts.length === 2 ? 'md' : 'y';
  return dateFields(order)!;
}

export function expandDate(raw: string, options: DateOptions, zh: boolean): string | null {
  const text = raw.trim().replace(/日$/, '');
  const fromFormat = options.format ? dateFields(options.format) : null;
  if (options.format && !fromFormat) return null;
  const guessParts = text.split(SEPARATORS).filter(Boolean);
  const fields = fromFormat ?? defaultFields(guessParts);
  const parts = splitParts(text, fields);
  if (!parts) return null;
  const date: { y?: string; m?: number; d?: number } = {};
  let numFields = 0;
  for (let i = 0; i < fields.length; i++) {
    const part = parts[i];
    // Polly masks a field it should not say with question marks: ????0922 is September 22nd.
    if (/^\?+$/.test(part)) continue;
    numFields++;
    if (fields[i].key === 'm') {
      const m = monthNumber(part);
      if (m === null) return null;
      date.m = m;
    } else if (!/^\d{1,4}$/.test(part)) return null;
    else if (fields[i].key === 'y') date.y = part;
    else date.d = Number(part);
  }
  if (date.m !== undefined && (date.m < 1 || date.m > 12)) return null;
  if (date.d !== undefined && (date.d < 1 || date.d > 31)) return null;
  // Calendar check: 31 April, 30 February and 29 February of a common year do not exist.
  if (date.d !== undefined && date.m !== undefined) {
    const maxDay = date.m === 2 && date.y !== undefined && !isLeapYear(Number(date.y)) ? 28 : DAYS_IN_MONTH[date.m - 1];
    if (date.d > maxDay) return null;
  }
  if (zh) return chineseDate(date);
  const month = date.m !== undefined ? EN_MONTHS[date.m - 1] : '';
  const day = date.d !== undefined ? englishOrdinal(String(date.d))! : '';
  const year = date.y !== undefined ? englishYear(date.y) : '';
  const detail = options.detail ?? (options.googleDefaults ? (numFields === 3 ? '2' : '1') : null);
  if (detail === '1' && day) return [`the ${day}`, month ? `of ${month}` : '', year].filter(Boolean).join(' ').replace(/(of \w+) (\w)/, '$1, $2');
  if (month && day) return year ? `${month} ${day}, ${year}` : `${month} ${day}`;
  return [day && !month ? `the ${day}` : day, month, year].filter(Boolean).join(' ');
}

function chineseDate(date: { y?: string; m?: number; d?: number }): string {
  const year = date.y !== undefined ? `${chineseDigits(date.y, '一')}年` : '';
  const month = date.m !== undefined ? `${chineseInteger(String(date.m))}月` : '';
  const day = date.d !== undefined ? `${chineseInteger(String(date.d))}日` : '';
  return year + month + day;
}

/** 2024 → "twenty twenty-four", 2005 → "two thousand five", 1905 → "nineteen oh five", '05' → "oh five". */
export function englishYear(digits: string): string {
  const y = Number(digits);
  if (digits.length === 2 && digits[0] === '0') return `oh ${englishInteger(digits)}`;
  if (digits.length !== 4 || y < 1000 || (y >= 2000 && y < 2010)) return englishInteger(String(y));
  const hi = Math.floor(y / 100);
  const lo = y % 100;
  if (lo === 0) return `${englishInteger(String(hi))} hundred`;
  return `${englishInteger(String(hi))} ${lo < 10 ? `oh ${englishInteger(String(lo))}` : englishInteger(String(lo))}`;
}
