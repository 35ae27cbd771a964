/**
 * say-as currency in English and Chinese: an amount with a symbol ($42.01, €5, £3.50, ¥100) or
 * an ISO 4217 code before or after it (99.9 USD, CNY 12), read with the currency's name and its
 * minor unit: "ninety-nine US dollars and ninety cents" (Azure's example), "forty-two dollars
 * and one cent" (Google's), "四十二元零一分". null when the text is not an amount. Pure.
 */
import { chineseInteger, englishInteger, parseNumberText } from '../number-words';

interface Currency {
  /** English name as the ISO code reads ('US dollar'), and as its symbol reads ('dollar'). */
  en: [string, string];
  enPlural?: [string, string];
  /** Minor unit, singular and plural; null when the currency has none in use (yen, won). */
  enMinor: [string, string] | null;
  zh: string;
  zhMinor: string | null;
}

const CURRENCIES: Readonly<Record<string, Currency>> = {
  USD: { en: ['US dollar', 'dollar'], enMinor: ['cent', 'cents'], zh: '美元', zhMinor: '美分' },
  EUR: { en: ['euro', 'euro'], enMinor: ['cent', 'cents'], zh: '欧元', zhMinor: '欧分' },
  GBP: { en: ['British pound', 'pound'], enMinor: ['penny', 'pence'], zh: '英镑', zhMinor: '便士' },
  JPY: { en: ['Japanese yen', 'yen'], enPlural: ['Japanese yen', 'yen'], enMinor: null, zh: '日元', zhMinor: null },
  CNY: { en: ['Chinese yuan', 'yuan'], enPlural: ['Chinese yuan', 'yuan'], enMinor: ['fen', 'fen'], zh: '元', zhMinor: null },
  HKD: { en: ['Hong Kong dollar', 'dollar'], enMinor: ['cent', 'cents'], zh: '港元', zhMinor: '港仙' },
  TWD: { en: ['New Taiwan dollar', 'dollar'], enMinor: null, zh: '新台币', zhMinor: null },
  KRW: { en: ['South Korean won', 'won'], enPlural: ['South Korean won', 'won'], enMinor: null, zh: '韩元', zhMinor: null },
  CAD: { en: ['Canadian dollar', 'dollar'], enMinor: ['cent', 'cents'], zh: '加元', zhMinor: '加分' },
  AUD: { en: ['Australian dollar', 'dollar'], enMinor: ['cent', 'cents'], zh: '澳元', zhMinor: '澳分' },
  INR: { en: ['Indian rupee', 'rupee'], enMinor: ['paisa', 'paise'], zh: '印度卢比', zhMinor: null },
  CHF: { en: ['Swiss franc', 'franc'], enMinor: ['centime', 'centimes'], zh: '瑞士法郎', zhMinor: null },
  RUB: { en: ['Russian ruble', 'ruble'], enMinor: ['kopek', 'kopeks'], zh: '卢布', zhMinor: '戈比' },
  BRL: { en: ['Brazilian real', 'real'], enPlural: ['Brazilian reais', 'reais'], enMinor: ['centavo', 'centavos'], zh: '巴西雷亚尔', zhMinor: null },
  MXN: { en: ['Mexican peso', 'peso'], enMinor: ['centavo', 'centavos'], zh: '墨西哥比索', zhMinor: null },
};
const CODE_ALIASES: Readonly<Record<string, string>> = { RMB: 'CNY', '元': 'CNY', '美元': 'USD', '欧元': 'EUR', '英镑': 'GBP', '日元': 'JPY' };
/** Symbols; ¥ is yuan in Chinese and yen in English text. */
const SYMBOLS: Readonly<Record<string, string>> = { $: 'USD', US$: 'USD', '€': 'EUR', '£': 'GBP', '₩': 'KRW', '₹': 'INR', HK$: 'HKD', C$: 'CAD', A$: 'AUD', R$: 'BRL', '₽': 'RUB', 'CN¥': 'CNY', '￥': 'CNY' };

const AMOUNT = /^([-−]?)\s*([A-Za-z]{0,3}[$€£¥￥₩₹₽]|[A-Z]{3})?\s*([\d,]+(?:\.\d+)?)\s*([A-Za-z]{3}|元|美元|欧元|英镑|日元)?$/;

export function expandCurrency(text: string, zh: boolean): string | null {
  const m = AMOUNT.exec(text.trim());
  if (!m || (!m[2] && !m[4]) || (m[2] && m[4])) return null;
  const mark = m[2] ?? m[4];
  const bySymbol = m[2] !== undefined && !/^[A-Z]{3}$/.test(m[2]);
  const code = bySymbol ? (mark === '¥' ? (zh ? 'CNY' : 'JPY') : SYMBOLS[mark]) : CODE_ALIASES[mark] ?? mark.toUpperCase();
  const currency = code ? CURRENCIES[code] : undefined;
  const amount = parseNumberText(m[3]);
  if (!currency || !amount) return null;
  const negative = m[1] !== '';
  const words = zh ? chineseAmount(amount.integer, amount.fraction, currency, code === 'CNY') : englishAmount(amount.integer, amount.fraction, currency, bySymbol ? 1 : 0);
  return negative ? (zh ? `负${words}` : `minus ${words}`) : words;
}

function englishAmount(integer: string, fraction: string, c: Currency, form: 0 | 1): string {
  const major = Number(integer);
  const name = major === 1 ? c.en[form] : (c.enPlural?.[form] ?? `${c.en[form]}s`);
  // Two decimals are the minor unit (.9 is ninety cents); more decimals read as a decimal amount.
  if (fraction.length > 2 || (fraction && !c.enMinor)) return `${englishInteger(integer)} point ${[...fraction].map((d) => englishInteger(d)).join(' ')} ${c.enPlural?.[form] ?? `${c.en[form]}s`}`;
  const minor = fraction ? Number(fraction.padEnd(2, '0')) : 0;
  const majorWords = `${englishInteger(integer)} ${name}`;
  if (minor === 0) return majorWords;
  const minorWords = `${englishInteger(String(minor))} ${minor === 1 ? c.enMinor![0] : c.enMinor![1]}`;
  return major === 0 ? minorWords : `${majorWords} and ${minorWords}`;
}

function chineseAmount(integer: string, fraction: string, c: Currency, yuan: boolean): string {
  const cents = fraction.length <= 2 ? fraction.padEnd(2, '0') : null;
  if (yuan && cents !== null) {
    // 元, 角 (tenths), 分 (hundredths): 42.01 → 四十二元零一分, 3.5 → 三元五角.
    const [jiao, fen] = [Number(cents[0]), Number(cents[1])];
    let out = Number(integer) > 0 || (jiao === 0 && fen === 0) ? `${chineseInteger(integer)}元` : '';
    if (jiao > 0) out += `${chineseInteger(String(jiao))}角`;
    if (fen > 0) out += `${out && jiao === 0 ? '零' : ''}${chineseInteger(String(fen))}分`;
    return out;
  }
  if (cents !== null && c.zhMinor && Number(cents) > 0) {
    const major = Number(integer) > 0 ? `${chineseInteger(integer)}${c.zh}` : '';
    return `${major}${chineseInteger(String(Number(cents)))}${c.zhMinor}`;
  }
  const decimals = fraction && Number(fraction) > 0 ? `点${[...fraction].map((d) => chineseInteger(d)).join('')}` : '';
  return `${chineseInteger(integer)}${decimals}${c.zh}`;
}
