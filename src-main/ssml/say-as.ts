/**
 * <say-as interpret-as> expansion into speakable text for English and Chinese, one reader per
 * class under say-as/: numbers (number-words.ts), fraction, date, time and duration, currency,
 * unit, address. Spelling forms, telephone and name live here. Which values and formats a
 * dialect takes is say-as/values.ts; expletive/bleep is silenced by the caller. Returns null when
 * the text does not fit the interpretation, so the parser can report it with a position. Pure.
 */
import type { ResolvedDialect } from './dialects';
import { chineseCardinal, chineseDigits, chineseOrdinal, englishCardinal, englishDigits, englishOrdinal } from './number-words';
import { expandAddress } from './say-as/address';
import { expandCurrency } from './say-as/currency';
import { expandDate } from './say-as/date';
import { expandFraction } from './say-as/fraction';
import { expandDuration, expandTime } from './say-as/time';
import { expandUnit } from './say-as/unit';

export type SayAsLanguage = 'english' | 'chinese';

export interface SayAsOptions {
  format: string | null;
  detail: string | null;
  dialect: ResolvedDialect;
}

export function expandSayAs(interpretAs: string, options: SayAsOptions, text: string, language: SayAsLanguage): string | null {
  const t = text.trim();
  const zh = language === 'chinese';
  const { format } = options;
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
      return expandDate(t, { format, detail: options.detail, googleDefaults: options.dialect === 'google' }, zh);
    case 'time':
      return expandTime(t, format, zh);
    case 'duration':
      return expandDuration(t, format, zh);
    case 'telephone':
      return expandTelephone(t, zh);
    case 'currency':
      return expandCurrency(t, zh);
    case 'unit':
      return expandUnit(t, zh);
    case 'address':
      return expandAddress(t, zh);
    case 'name':
      // A name is spoken as a word, never spelled ("ED" is [æd], Azure); nothing to expand.
      return t === '' ? null : t;
    default:
      return null;
  }
}

function spellOut(text: string, zh: boolean): string | null {
  const chars = [...text].filter((c) => !/\s/.test(c));
  if (chars.length === 0) return null;
  return chars.map((c) => (/\d/.test(c) ? (zh ? chineseDigits(c) : englishDigits(c)) : c.toUpperCase())).join(' ');
}

/**
 * Digits read one by one in their written groups; Chinese reads 1 as 幺 in phone numbers. An
 * extension (Polly: 2025551212x345) is read after "extension" / 转.
 */
function expandTelephone(text: string, zh: boolean): string | null {
  const ext = /^(.*?)\s*(?:x|ext\.?|extension)\s*(\d+)$/i.exec(text);
  const t = (ext ? ext[1] : text).trim();
  if (!/^\+?[\d\s().-]+$/.test(t) || !/\d/.test(t)) return null;
  const groups = t.replace(/^\+/, '').split(/[\s().-]+/).filter(Boolean);
  const spoken = groups.map((g) => (zh ? chineseDigits(g, '幺') : englishDigits(g)));
  const plus = t.startsWith('+') ? (zh ? '加' : 'plus ') : '';
  const extension = ext ? (zh ? `转${chineseDigits(ext[2], '幺')}` : `, extension ${englishDigits(ext[2])}`) : '';
  return plus + spoken.join(zh ? '，' : ', ') + extension;
}
