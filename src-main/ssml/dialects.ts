/**
 * The four readings of SSML the studio knows, and 'auto' detection. Each dialect's table holds
 * what its vendor documents where SSML 1.1 leaves a choice: break strengths in ms, keyword
 * levels, what an unsigned percentage means, and the pause a paragraph makes. Detection reads
 * element and attribute names only (never text or comments) and names the evidence it used.
 */
import { SaxesParser } from 'saxes';
import type { SsmlDialect } from '../../src-shared/synthesis';

export type ResolvedDialect = Exclude<SsmlDialect, 'auto'>;

export const DIALECT_LABELS: Record<ResolvedDialect, string> = { ssml11: 'W3C SSML 1.1', azure: 'Azure', google: 'Google Cloud TTS', polly: 'Amazon Polly' };

export interface DialectRules {
  name: ResolvedDialect;
  /** <break strength> → ms. */
  breakStrengthMs: Readonly<Record<string, number>>;
  /** <break/> with neither time nor strength. */
  defaultBreakMs: number;
  /** The pause between paragraphs (<p>); sentences (<s>) end with punctuation and the model's own pause. */
  paragraphPauseMs: number;
  /** rate keywords → multiplier. */
  rateKeywords: Readonly<Record<string, number>>;
  /** pitch keywords → semitones. */
  pitchKeywordsSt: Readonly<Record<string, number>>;
  /** volume keywords → dB. */
  volumeKeywordsDb: Readonly<Record<string, number>>;
  /**
   * rate="50%": 'multiplier' (SSML 1.1, Polly, Google: 0.5×) or 'relative' (Azure: +50 % = 1.5×).
   * pitch/volume="50%" unsigned: only Azure accepts it, as a relative change.
   */
  unsignedPercent: 'multiplier' | 'relative';
  /** volume="+10" / "-5.5": Azure's relative change on its 0–100 level scale. */
  signedVolumeNumber: boolean;
}

/** SSML 1.1 leaves keyword levels and strengths to the processor: these are the studio's own. */
const STUDIO_BREAKS = { none: 0, 'x-weak': 150, weak: 300, medium: 500, strong: 800, 'x-strong': 1200 };
const STUDIO_RATES = { 'x-slow': 0.6, slow: 0.8, medium: 1, fast: 1.25, 'x-fast': 1.5, default: 1 };
const STUDIO_PITCHES = { 'x-low': -4, low: -2, medium: 0, high: 2, 'x-high': 4, default: 0 };
/** silent is a finite floor so the value survives JSON; −120 dB is inaudible. */
export const SILENT_GAIN_DB = -120;
const STUDIO_VOLUMES = { silent: SILENT_GAIN_DB, 'x-soft': -12, soft: -6, medium: 0, loud: 3, 'x-loud': 6, default: 0 };

const st = (ratio: number) => Math.round(12 * Math.log2(ratio) * 100) / 100;
const db = (level: number) => (level > 0 ? Math.round(20 * Math.log10(level) * 100) / 100 : SILENT_GAIN_DB);

/** Polly: weak/medium = a comma's pause, strong = a sentence's, x-strong = a paragraph's (the studio's lengths for those). */
const POLLY_PAUSE_MS = { comma: 300, sentence: 600, paragraph: 900 };

export const DIALECT_RULES: Readonly<Record<ResolvedDialect, DialectRules>> = {
  ssml11: { name: 'ssml11', breakStrengthMs: STUDIO_BREAKS, defaultBreakMs: 500, paragraphPauseMs: 800, rateKeywords: STUDIO_RATES, pitchKeywordsSt: STUDIO_PITCHES, volumeKeywordsDb: STUDIO_VOLUMES, unsignedPercent: 'multiplier', signedVolumeNumber: false },
  google: { name: 'google', breakStrengthMs: STUDIO_BREAKS, defaultBreakMs: 500, paragraphPauseMs: 800, rateKeywords: STUDIO_RATES, pitchKeywordsSt: STUDIO_PITCHES, volumeKeywordsDb: STUDIO_VOLUMES, unsignedPercent: 'multiplier', signedVolumeNumber: false },
  polly: {
    name: 'polly',
    breakStrengthMs: { none: 0, 'x-weak': 0, weak: POLLY_PAUSE_MS.comma, medium: POLLY_PAUSE_MS.comma, strong: POLLY_PAUSE_MS.sentence, 'x-strong': POLLY_PAUSE_MS.paragraph },
    defaultBreakMs: POLLY_PAUSE_MS.comma,
    paragraphPauseMs: POLLY_PAUSE_MS.paragraph,
    rateKeywords: STUDIO_RATES,
    pitchKeywordsSt: STUDIO_PITCHES,
    volumeKeywordsDb: STUDIO_VOLUMES,
    unsignedPercent: 'multiplier',
    signedVolumeNumber: false,
  },
  // learn.microsoft.com/azure/ai-services/speech-service/speech-synthesis-markup-structure#add-a-break
  // and speech-synthesis-markup-voice#adjust-prosody: the equivalents Azure lists for each keyword.
  azure: {
    name: 'azure',
    breakStrengthMs: { none: 0, 'x-weak': 250, weak: 500, medium: 750, strong: 1000, 'x-strong': 1250 },
    defaultBreakMs: 750,
    paragraphPauseMs: 1000,
    rateKeywords: { 'x-slow': 0.5, slow: 0.64, medium: 1, fast: 1.55, 'x-fast': 2, default: 1 },
    pitchKeywordsSt: { 'x-low': st(0.55), low: st(0.8), medium: 0, high: st(1.2), 'x-high': st(1.45), default: 0 },
    volumeKeywordsDb: { silent: SILENT_GAIN_DB, 'x-soft': db(0.2), soft: db(0.4), medium: db(0.6), loud: db(0.8), 'x-loud': 0, default: 0 },
    unsignedPercent: 'relative',
    signedVolumeNumber: true,
  },
};

export interface DialectChoice {
  dialect: ResolvedDialect;
  /** null when the caller chose it; else the evidence ('xmlns:mstts on <speak>', 'no vendor markup'). */
  detectedFrom: string | null;
}

/** en-US-AvaNeural, en-US-Ava:DragonHDLatestNeural, en-US-MultiTalker-Ava-Andrew:DragonHDLatestNeural, Microsoft Server Speech … */
const AZURE_VOICE_NAME = /^[a-z]{2,3}-[A-Z]{2,4}-[\w-]+?(:\w+)?Neural$|^Microsoft Server Speech Text to Speech Voice/;
const GOOGLE_VOICE_NAME = /^[a-z]{2,3}-[A-Z]{2}-(Standard|Wavenet|Neural2|Studio|Polyglot|News|Journey|Chirp|Chirp3-HD|Casual)\b/;
const GOOGLE_ELEMENTS = new Set(['par', 'seq', 'media']);

/** Picks the dialect from names in the document; the first clear sign wins, in document order. */
export function chooseDialect(requested: SsmlDialect, source: string): DialectChoice {
  if (requested !== 'auto') return { dialect: requested, detectedFrom: null };
  const xml = new SaxesParser({ xmlns: false });
  let found: DialectChoice | null = null;
  const settle = (dialect: ResolvedDialect, why: string) => {
    if (!found) found = { dialect, detectedFrom: why };
  };
  xml.on('error', () => {
    throw STOP;
  });
  xml.on('opentag', (tag) => {
    const name = tag.name;
    const attrs = tag.attributes as Record<string, string>;
    for (const [key, value] of Object.entries(attrs)) {
      if (key === 'xmlns:mstts' || value.includes('w3.org/2001/mstts')) settle('azure', `${key} on <${name}>`);
      if (key === 'xmlns:amazon') settle('polly', `${key} on <${name}>`);
      if (key.startsWith('amazon:')) settle('polly', `attribute ${key} on <${name}>`);
      if (key.startsWith('mstts:')) settle('azure', `attribute ${key} on <${name}>`);
      if (key.startsWith('google:')) settle('google', `attribute ${key} on <${name}>`);
    }
    if (name.startsWith('mstts:')) settle('azure', `<${name}>`);
    else if (name.startsWith('amazon:')) settle('polly', `<${name}>`);
    else if (name.startsWith('google:') || GOOGLE_ELEMENTS.has(name)) settle('google', `<${name}>`);
    else if (name === 'bookmark') settle('azure', '<bookmark>');
    else if (name === 'math') settle('azure', '<math> (Azure reads MathML)');
    else if (name === 'say-as' && attrs.language !== undefined) settle('google', '<say-as language> (a Google attribute)');
    else if (name === 'voice') {
      const voiceName = attrs.name ?? '';
      if (AZURE_VOICE_NAME.test(voiceName)) settle('azure', `Azure voice name '${voiceName}'`);
      else if (GOOGLE_VOICE_NAME.test(voiceName)) settle('google', `Google voice name '${voiceName}'`);
      else if (attrs.language !== undefined) settle('google', '<voice language> (a Google attribute)');
    }
    if (found) throw STOP;
  });
  try {
    xml.write(source).close();
  } catch (err) {
    if (err !== STOP) throw err;
  }
  return found ?? { dialect: 'ssml11', detectedFrom: 'no vendor namespace, element or voice name' };
}

const STOP = Symbol('stop');
