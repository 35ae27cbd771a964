/**
 * say-as fraction in English and Chinese: "3/8" → "three eighths", "1/2" → "one half", mixed
 * numbers as Google ("5+1/2") and Polly ("3+1/2", "2½") write them → "five and a half";
 * Chinese 四分之三, 五又二分之一. null when the text is not a fraction. Pure.
 */
import { chineseInteger, englishInteger, englishOrdinal } from '../number-words';

const VULGAR: Readonly<Record<string, string>> = { '½': '1/2', '⅓': '1/3', '⅔': '2/3', '¼': '1/4', '¾': '3/4', '⅕': '1/5', '⅛': '1/8', '⅜': '3/8', '⅝': '5/8', '⅞': '7/8' };

export function expandFraction(raw: string, zh: boolean): string | null {
  const text = raw.trim().replace(/\s*([½⅓⅔¼¾⅕⅛⅜⅝⅞])/g, (_, v: string) => `+${VULGAR[v]}`).replace(/^\+/, '');
  const mixed = /^(\d{1,6})\s*(?:\+|\s)\s*(\d{1,6}\s*\/\s*\d{1,6})$/.exec(text);
  if (mixed) {
    const rest = expandFraction(mixed[2], zh);
    if (rest === null) return null;
    if (zh) return `${chineseInteger(mixed[1])}又${rest}`;
    // "five and a half", "two and an eighth" (Google's and Polly's readings); "two and three quarters".
    const single = /^one (half|quarter|(\w+))$/.exec(rest);
    const fraction = single ? `${/^[aeiou]/.test(single[1]) ? 'an' : 'a'} ${single[1]}` : rest;
    return `${englishInteger(mixed[1])} and ${fraction}`;
  }
  const m = /^(\d{1,6})\s*\/\s*(\d{1,6})$/.exec(text);
  if (!m || Number(m[2]) === 0) return null;
  const [num, den] = [Number(m[1]), Number(m[2])];
  if (zh) return `${chineseInteger(String(den))}分之${chineseInteger(String(num))}`;
  const plural = num === 1 ? '' : 's';
  const denominator = den === 1 ? `over one` : den === 2 ? (num === 1 ? 'half' : 'halves') : den === 4 ? `quarter${plural}` : `${englishOrdinal(String(den))!}${plural}`;
  return `${englishInteger(String(num))} ${denominator}`;
}
