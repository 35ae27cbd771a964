/**
 * say-as unit in English and Chinese: a number, fraction or mixed number and a unit, with or
 * without a space (Google: "10 foot" → "ten feet"; Polly: "1/2inch", "1meter"). English takes the
 * singular for exactly one and fractions below one, the plural otherwise (1.0 and 0 included);
 * Chinese needs no plural but reads 2 as 两 before a measure word. null when it does not fit. Pure.
 */
import { chineseCardinal, englishCardinal } from '../number-words';
import { expandFraction } from './fraction';

/** [English singular, English plural, Chinese], by every way the unit is written. */
type UnitWords = readonly [string, string, string];
const UNITS: readonly (readonly [readonly string[], UnitWords])[] = [
  [['mm', 'millimeter', 'millimetre'], ['millimeter', 'millimeters', '毫米']],
  [['cm', 'centimeter', 'centimetre'], ['centimeter', 'centimeters', '厘米']],
  [['m', 'meter', 'metre'], ['meter', 'meters', '米']],
  [['km', 'kilometer', 'kilometre'], ['kilometer', 'kilometers', '公里']],
  [['in', 'inch', '"'], ['inch', 'inches', '英寸']],
  [['ft', 'foot', 'feet', "'"], ['foot', 'feet', '英尺']],
  [['yd', 'yard'], ['yard', 'yards', '码']],
  [['mi', 'mile'], ['mile', 'miles', '英里']],
  [['mg', 'milligram'], ['milligram', 'milligrams', '毫克']],
  [['g', 'gram'], ['gram', 'grams', '克']],
  [['kg', 'kilogram', 'kilo'], ['kilogram', 'kilograms', '千克']],
  [['t', 'tonne', 'ton'], ['ton', 'tons', '吨']],
  [['lb', 'lbs', 'pound'], ['pound', 'pounds', '磅']],
  [['oz', 'ounce'], ['ounce', 'ounces', '盎司']],
  [['ml', 'mL', 'milliliter', 'millilitre'], ['milliliter', 'milliliters', '毫升']],
  [['l', 'L', 'liter', 'litre'], ['liter', 'liters', '升']],
  [['gal', 'gallon'], ['gallon', 'gallons', '加仑']],
  [['ms', 'millisecond'], ['millisecond', 'milliseconds', '毫秒']],
  [['s', 'sec', 'second'], ['second', 'seconds', '秒']],
  [['min', 'minute'], ['minute', 'minutes', '分钟']],
  [['h', 'hr', 'hour'], ['hour', 'hours', '小时']],
  [['km/h', 'kph', 'kmh'], ['kilometer per hour', 'kilometers per hour', '公里每小时']],
  [['mph'], ['mile per hour', 'miles per hour', '英里每小时']],
  [['m/s'], ['meter per second', 'meters per second', '米每秒']],
  [['°C', '℃', 'celsius'], ['degree Celsius', 'degrees Celsius', '摄氏度']],
  [['°F', '℉', 'fahrenheit'], ['degree Fahrenheit', 'degrees Fahrenheit', '华氏度']],
  [['°', 'degree'], ['degree', 'degrees', '度']],
  [['KB', 'kB', 'kilobyte'], ['kilobyte', 'kilobytes', '千字节']],
  [['MB', 'megabyte'], ['megabyte', 'megabytes', '兆字节']],
  [['GB', 'gigabyte'], ['gigabyte', 'gigabytes', '吉字节']],
  [['TB', 'terabyte'], ['terabyte', 'terabytes', '太字节']],
  [['Hz', 'hertz'], ['hertz', 'hertz', '赫兹']],
  [['kHz', 'kilohertz'], ['kilohertz', 'kilohertz', '千赫']],
  [['MHz', 'megahertz'], ['megahertz', 'megahertz', '兆赫']],
  [['GHz', 'gigahertz'], ['gigahertz', 'gigahertz', '吉赫']],
  [['W', 'watt'], ['watt', 'watts', '瓦']],
  [['kW', 'kilowatt'], ['kilowatt', 'kilowatts', '千瓦']],
  [['kWh', 'kilowatt-hour'], ['kilowatt-hour', 'kilowatt-hours', '千瓦时']],
  [['V', 'volt'], ['volt', 'volts', '伏']],
  [['m²', 'm2', 'sqm', 'square meter', 'square metre'], ['square meter', 'square meters', '平方米']],
  [['km²', 'km2', 'square kilometer'], ['square kilometer', 'square kilometers', '平方公里']],
  [['ft²', 'sq ft', 'square foot'], ['square foot', 'square feet', '平方英尺']],
  [['%', 'percent'], ['percent', 'percent', '%']],
];

function findUnit(written: string): UnitWords | null {
  for (const [spellings, words] of UNITS) {
    // Symbols match exactly (m is not M); names ignore case and an English plural.
    if (spellings.includes(written)) return words;
    const lower = written.toLowerCase();
    if (spellings.some((s) => s.length > 2 && (s.toLowerCase() === lower || words[1].toLowerCase() === lower))) return words;
  }
  return null;
}

const QUANTITY = /^([-−]?(?:\d+\s*\/\s*\d+|\d[\d,]*(?:\.\d+)?(?:\s*\+?\s*\d+\s*\/\s*\d+)?))\s*(.+)$/;

export function expandUnit(text: string, zh: boolean): string | null {
  const m = QUANTITY.exec(text.trim());
  if (!m) return null;
  const unit = findUnit(m[2].trim());
  if (!unit) return null;
  const quantity = m[1].replace(/\s+/g, ' ');
  const isFraction = quantity.includes('/');
  const mixed = /^(\d+)\s*\+?\s*(\d+\s*\/\s*\d+)$/.exec(quantity);
  const number = isFraction ? expandFraction(mixed ? `${mixed[1]}+${mixed[2]}` : quantity, zh) : zh ? chineseCardinal(quantity) : englishCardinal(quantity);
  if (number === null) return null;
  if (zh) {
    if (unit[2] === '%') return `百分之${number}`;
    return `${quantity === '2' ? '两' : number}${unit[2]}`;
  }
  // One, and proper fractions ("one half inch"), take the singular; everything else the plural.
  const singular = quantity === '1' || (isFraction && !mixed && evalFraction(quantity) < 1);
  return `${number} ${singular ? unit[0] : unit[1]}`;
}

function evalFraction(text: string): number {
  const [num, den] = text.split('/').map(Number);
  return num / den;
}
