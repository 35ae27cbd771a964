/**
 * say-as time and duration, in English and Chinese: clock times (hms12, hms24, with a.m./p.m.),
 * Azure's duration (formats hms, hm, ms: "01:18:30" → one hour eighteen minutes and thirty
 * seconds) and Polly's minutes-and-seconds notation (1'21" → one minute twenty-one seconds),
 * which both `time` and `duration` accept. null when the text does not fit. Pure.
 */
import { chineseCardinal, chineseInteger, englishCardinal, englishInteger } from '../number-words';

export const TIME_FORMATS = ['hms12', 'hms24'] as const;
export const DURATION_FORMATS = ['hms', 'hm', 'ms'] as const;

/** 1'21", 2', 30", 1′21″ (primes), with optional decimals on the seconds. */
const POLLY_DURATION = /^(?:(\d{1,4})\s*['′])?\s*(?:(\d{1,4}(?:\.\d+)?)\s*(?:"|″|''))?$/;

export function expandTime(text: string, format: string | null, zh: boolean): string | null {
  const polly = pollyDuration(text, zh);
  if (polly !== null) return polly;
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
  let words = englishInteger(String(hour));
  if (minute === 0) words += suffix ? '' : hour >= 1 && hour <= 12 ? " o'clock" : ' hundred';
  else words += minute < 10 ? ` oh ${englishInteger(String(minute))}` : ` ${englishInteger(String(minute))}`;
  if (suffix) words += ` ${suffix}`;
  if (second) words += ` and ${englishInteger(String(second))} second${second === 1 ? '' : 's'}`;
  return words;
}

/** Polly's time: minutes and seconds written 1'21". */
function pollyDuration(text: string, zh: boolean): string | null {
  const m = POLLY_DURATION.exec(text.trim());
  if (!m || (m[1] === undefined && m[2] === undefined)) return null;
  return spokenDuration([null, m[1] ?? null, m[2] ?? null], zh, false);
}

/** Azure's duration: "01:18:30" (hms by default for three fields, ms for two), or Polly's 1'21". */
export function expandDuration(text: string, format: string | null, zh: boolean): string | null {
  const t = text.trim();
  const polly = pollyDuration(t, zh);
  if (polly !== null) return polly;
  if (!/^\d{1,4}(:\d{1,2}){1,2}(\.\d+)?$/.test(t)) return null;
  const parts = t.split(':');
  const order = format ?? (parts.length === 3 ? 'hms' : 'ms');
  if (order.length !== parts.length) return null;
  const value = (key: string) => (order.includes(key) ? parts[order.indexOf(key)] : null);
  const [h, min, s] = [value('h'), value('m'), value('s')];
  // A field after the first counts up to 59 only.
  if ((order[0] !== 'm' && min !== null && Number(min) > 59) || (s !== null && Number(s) >= 60)) return null;
  return spokenDuration([h, min, s], zh, true);
}

const EN_UNITS = ['hour', 'minute', 'second'];
const ZH_UNITS = ['小时', '分钟', '秒'];

/** [hours, minutes, seconds] digit strings (null: absent); zero fields are not spoken unless all are zero. */
function spokenDuration(fields: (string | null)[], zh: boolean, withAnd: boolean): string | null {
  const spoken = fields.map((f, i) => ({ f, i })).filter(({ f }) => f !== null && Number(f) !== 0);
  const shown = spoken.length > 0 ? spoken : fields.map((f, i) => ({ f, i })).filter(({ f }) => f !== null).slice(-1);
  if (zh) return shown.map(({ f, i }) => `${chineseCardinal(f!)}${ZH_UNITS[i]}`).join('');
  const words = shown.map(({ f, i }) => `${englishCardinal(f!)} ${EN_UNITS[i]}${Number(f) === 1 ? '' : 's'}`);
  if (withAnd && words.length > 1) return `${words.slice(0, -1).join(' ')} and ${words[words.length - 1]}`;
  return words.join(' ');
}
