/**
 * <say-as interpret-as> expansion into speakable text for English and Chinese:
 * cardinal (alias number), ordinal, digits, characters (alias spell-out), date (format mdy,
 * dmy, ymd, md, dm, ym, my, d, m, y), time (format hms12, hms24) and telephone. Other
 * languages keep the text as written (the caller warns). Returns null when the text does
 * not fit the interpretation, so the parser can report it with a position.
 */
import { chineseCardinal, chineseDigits, chineseInteger, chineseOrdinal, englishCardinal, englishDigits, englishInteger, englishOrdinal } from './number-words';

export const SAY_AS_INTERPRETATIONS = ['cardinal', 'number', 'ordinal', 'digits', 'characters', 'spell-out', 'date', 'time', 'telephone'] as const;
export const DATE_FORMATS = ['mdy', 'dmy', 'ymd', 'md', 'dm', 'ym', 'my', 'd', 'm', 'y'] as const;
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
    case 'digits': {
      if (!/^[\d\s-]+$/.test(t) || !/\d/.test(t)) return null;
      const digits = t.replace(/\D/g, '');
      return zh ? chineseDigits(digits) : englishDigits(digits);
    }
    case 'characters':
    case 'spell-out':
      return spellOut(t, zh);
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

function expandDate(text: string, format: string | null, zh: boolean): string | null {
  const parts = text.split(/[-/.]/);
  if (!parts.every((p) => /^\d{1,4}$/.test(p))) return null;
  const order = format ?? (parts.length === 3 ? (parts[0].length === 4 ? 'ymd' : 'mdy') : parts.length === 2 ? 'md' : 'y');
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
