/**
 * Which say-as values and formats each dialect documents. A value or format a vendor does not
 * document is an error in that dialect (strict) or read as written with a warning that says so
 * (lenient), never guessed. W3C SSML 1.1 leaves the values to the processor: it takes them all.
 */
import type { ResolvedDialect } from '../dialects';
import { dateFields } from './date';
import { DURATION_FORMATS, TIME_FORMATS } from './time';
import { SAY_AS_ALL, SAY_AS_AZURE as AZURE, SAY_AS_GOOGLE as GOOGLE, SAY_AS_POLLY as POLLY } from '../../../src-shared/ssml-say-as';

export { SAY_AS_ALL };
export const SAY_AS_BLEEPED = ['expletive', 'bleep'] as const;

export const SAY_AS_VALUES: Readonly<Record<ResolvedDialect, readonly string[]>> = { polly: POLLY, azure: AZURE, google: GOOGLE, ssml11: SAY_AS_ALL };

const LETTER_DATE_FORMATS = ['mdy', 'dmy', 'ymd', 'md', 'dm', 'ym', 'my', 'd', 'm', 'y'];
const DATE_FORMATS: Readonly<Record<ResolvedDialect, readonly string[]>> = {
  polly: [...LETTER_DATE_FORMATS, 'yyyymmdd'],
  azure: [...LETTER_DATE_FORMATS, 'ydm'],
  google: [],
  ssml11: [...LETTER_DATE_FORMATS, 'ydm', 'yyyymmdd'],
};

/** The formats a value takes in a dialect (Google's date format is any code of y, m and d runs: checked by pattern). */
export function formatsOf(value: string, dialect: ResolvedDialect): readonly string[] | null {
  if (value === 'date') return DATE_FORMATS[dialect];
  if (value === 'time') return dialect === 'polly' ? [] : TIME_FORMATS;
  if (value === 'duration') return DURATION_FORMATS;
  return null;
}

/** null when the format is fine, else the formats to offer. */
export function checkFormat(value: string, format: string, dialect: ResolvedDialect): readonly string[] | null {
  const formats = formatsOf(value, dialect);
  if (formats === null) return null;
  if (formats.includes(format)) return null;
  // Google (and the studio's own reading) take any date code: yyyymmdd, ddmmyyyy, dm, yyyy-mm-dd without the dashes.
  if (value === 'date' && (dialect === 'google' || dialect === 'ssml11') && dateFields(format) !== null) return null;
  return value === 'date' && dialect === 'google' ? ['a code of y, m and d runs such as yyyymmdd, dmy, dm'] : formats;
}

/** The dialects that document a value, for the message naming them. */
export function dialectsWith(value: string): ResolvedDialect[] {
  return (['azure', 'google', 'polly'] as const).filter((d) => SAY_AS_VALUES[d].includes(value));
}
