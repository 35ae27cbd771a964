/**
 * <say-as interpret-as> expansion into speakable text for English and Chinese:
 * cardinal (alias number), ordinal, digits (alias number_digit), characters (aliases spell-out, verbatim), fraction,
 * date (format mdy, dmy, ymd, ydm, md, dm, ym, my, d, m, y, yyyymmdd; calendar-checked), time
 * (format hms12, hms24) and telephone. Vendor forms that need no expansion here (address, name,
 * unit, currency, duration) are read as written (the caller warns); expletive/bleep is silenced
 * by the caller. Other languages keep the text as written. Returns null when the text does not
 * fit the interpretation, so the parser can report it with a position.
 */
import { chineseCardinal, chineseDigits, chineseInteger, chineseOrdinal, englishCardinal, englishDigits, englishInteger, englishOrdinal } from './number-words';

export const SAY_AS_INTERPRETATIONS = ['cardinal', 'number', 'ordinal', 'digits', 'number_digit', 'characters', 'spell-out', 'verbatim', 'fraction', 'date', 'time', 'telephone'] as const;
/** Forms vendors document that the studio reads as written (with a warning). */
export const SAY_AS_AS_WRITTEN = ['address', 'name', 'unit', 'currency', 'duration'] as const;
/** Forms whose text must not be spoken: a silence of about the word's length replaces it. */
export const SAY_AS_BLEEPED = ['expletive', 'bleep'] as const;
export const DATE_FORMATS = ['mdy', 'dmy', 'ymd', 'ydm', 'md', 'dm', 'ym', 'my', 'd', 'm', 'y', 'yyyymmdd'] as const;
export const TIME_FORMATS = ['hms12', 'hms24'] as const;
export type SayAsLanguage = 'english' | 'chinese';

const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function expandSayAs(interpretAs: string, format: string | null, text: string, language: SayAsLanguage): string | null {
  const t = text.trim();
  const zh = language === 'chinese';
  switch (interpretAs) {
    case 'cardinal':
    case 'number':
      return zh ? chineseCardinal(t) : englishCardinal(t);
    case 'ordinal':
      return zh ? chineseOrdinal(t) : englishOrdinal(t);
    case 'digits':
    case 'number_digit': {
      if (!/^[\d\s-]+$/.test(t) || !/\d/.test(t)) return null;
      const digits = t.replace(/\D/g, '');
      return zh ? chineseDigits(digits) : englishDigits(digits);
    }
    case 'characters':
    case 'spell-out':
    case 'verbatim':
      return spellOut(t, zh);
    case 'fraction':
      return expandFraction(t, zh);
    case 'date':
      return expandDate(t, format, zh);
    case 'time':
      return expandTime(t, format, zh);
    case 'telephone':
      return expandTelephone(t, zh);
    default:
      return null;
  }
}

function spellOut(text: string, zh: boolean): string | null {
  const chars = [...text].filter((c) => !/\s/.test(c));
  if (chars.length === 0) return null;
  return chars.map((c) => (/\d/.test(c) ? (zh ? chineseDigits(c) : englishDigits(c)) : c.toUpperCase())).join(' ');
}

/** "3/4" → "three quarters", "1/2" → "one half", "2/3" → "two thirds"; Chinese "四分之三". */
function expandFraction(text: string, zh: boolean): string | null {
  // Mixed numbers as Google writes them: "5+1/2" → "five and one half".
  const mixed = /^(\d{1,6})\s*\+\s*(\d{1,6}\s*\/\s*\d{1,6})$/.exec(text);
  if (mixed) {
    const rest = expandFraction(mixed[2], zh);
    return rest === null ? null : zh ? `${chineseInteger(mixed[1])}又${rest}` : `${englishInteger(mixed[1])} and ${rest}`;
  }
  const m = /^(\d{1,6})\s*\/\s*(\d{1,6})$/.exec(text);
  if (!m || Number(m[2]) === 0) return null;
  const [num, den] = [Number(m[1]), Number(m[2])];
  if (zh) return `${chineseInteger(String(den))}分之${chineseInteger(String(num))}`;
  const plural = num === 1 ? '' : 's';
  const denominator = den === 2 ? (num === 1 ? 'half' : 'halves') : den === 4 ? `quarter${plural}` : `${englishOrdinal(String(den))!}${plural}`;
  return `${englishInteger(String(num))} ${denominator}`;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function expandDate(text: string, format: string | null, zh: boolean): string | null {
  const compact = format === 'yyyymmdd' ? /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text) : null;
  if (format === 'yyyymmdd' && !compact) return null;
  const parts = compact ? compact.slice(1) : text.split(/[-/.]/);
  if (!parts.every((p) => /^\d{1,4}$/.test(p))) return null;
  const order = format === 'yyyymmdd' ? 'ymd' : format ?? (parts.length === 3 ? (parts[0].length === 4 ? 'ymd' : 'mdy') : parts.length === 2 ? 'md' : 'y');
  if (order.length !== parts.length) return null;
  const fields: { y?: string; m?: number; d?: number } = {};
  for (let i = 0; i < order.length; i++) {
    const key = order[i];
    if (key === 'y') fields.y = parts[i];
    else if (key === 'm') fields.m = Number(parts[i]);
    else if (key === 'd') fields.d = Number(parts[i]);
  }
  if (fields.m !== undefined && (fields.m < 1 || fields.m > 12)) return null;
  if (fields.d !== undefined && (fields.d < 1 || fields.d > 31)) return null;
  // Calendar check: 31 April, 30 February and 29 February of a common year do not exist.
  if (fields.d !== undefined && fields.m !== undefined) {
    const maxDay = fields.m === 2 && fields.y !== undefined && !isLeapYear(Number(fields.y)) ? 28 : DAYS_IN_MONTH[fields.m - 1];
    if (fields.d > maxDay) return null;
  }
  if (zh) {
    return (fields.y !== undefined ? `${chineseDigits(fields.y, '一')}年` : '') + (fields.m !== undefined ? `${chineseInteger(String(fields.m))}月` : '') + (fields.d !== undefined ? `${chineseInteger(String(fields.d))}日` : '');
  }
  const month = fields.m !== undefined ? EN_MONTHS[fields.m - 1] : '';
  const day = fields.d !== undefined ? englishOrdinal(String(fields.d))! : '';
  const year = fields.y !== undefined ? englishYear(fields.y) : '';
  if (month && day) return year ? `${month} ${day}, ${year}` : `${month} ${day}`;
  return [day && !month ? `the ${day}` : day, month, year].filter(Boolean).join(' ');
}

/** 2024 → "twenty twenty-four", 2005 → "two thousand five", 1905 → "nineteen oh five". */
function englishYear(digits: string): string {
  const y = Number(digits);
  if (digits.length !== 4 || y < 1000 || (y >= 2000 && y < 2010)) return englishInteger(String(y));
  const hi = Math.floor(y / 100);
  const lo = y % 100;
  if (lo === 0) return `${englishInteger(String(hi))} hundred`;
  return `${englishInteger(String(hi))} ${lo < 10 ? `oh ${englishInteger(String(lo))}` : englishInteger(String(lo))}`;
}

function expandTime(text: string, format: string | null, zh: boolean): string | null {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap])?\.?\s*(m\.?)?$/i.exec(text);
  if (!m || (m[4] && !m[5]) || (!m[4] && m[5])) return null;
  let hour = Number(m[1]);
  const minute = Number(m[2]);
  const second = m[3] ? Number(m[3]) : 0;
  let suffix = m[4] ? (m[4].toLowerCase() === 'a' ? 'AM' : 'PM') : '';
  if (minute > 59 || second > 59 || hour > 23 || (suffix && (hour < 1 || hour > 12))) return null;
  if (!suffix && format === 'hms12') {
    suffix = hour < 12 ? 'AM' : 'PM';
    hour = hour % 12 === 0 ? 12 : hour % 12;
  }
  if (zh) {
    const prefix = suffix === 'AM' ? '上午' : suffix === 'PM' ? '下午' : '';
    const minutes = minute === 0 ? '' : `${minute < 10 ? '零' : ''}${chineseInteger(String(minute))}分`;
    const seconds = second === 0 ? '' : `${chineseInteger(String(second))}秒`;
    return `${prefix}${chineseInteger(String(hour))}点${minutes}${seconds}`;
  }
  const h = englishInteger(String(hour));
  let words = h;
  if (minute === 0) words += suffix ? '' : hour >= 1 && hour <= 12 ? " o'clock" : ' hundred';
  else words += minute < 10 ? ` oh ${englishInteger(String(minute))}` : ` ${englishInteger(String(minute))}`;
  if (suffix) words += ` ${suffix}`;
  if (second) words += ` and ${englishInteger(String(second))} second${second === 1 ? '' : 's'}`;
  return words;
}

/** Digits read one by one in their written groups; Chinese reads 1 as 幺 in phone numbers. */
function expandTelephone(text: string, zh: boolean): string | null {
  const t = text.trim();
  if (!/^\+?[\d\s().-]+$/.test(t) || !/\d/.test(t)) return null;
  const groups = t.replace(/^\+/, '').split(/[\s().-]+/).filter(Boolean);
  const spoken = groups.map((g) => (zh ? chineseDigits(g, '幺') : englishDigits(g)));
  const plus = t.startsWith('+') ? (zh ? '加' : 'plus ') : '';
  return plus + spoken.join(zh ? '，' : ', ');
}
