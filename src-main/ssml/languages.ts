/**
 * Maps xml:lang values (BCP 47 tags such as en-US, zh-CN) to the model's language names.
 * The names are Qwen3-TTS's ten languages; the checkpoint's codec_language_id decides which
 * of them a given model knows (passed in as knownLanguages).
 */

export const QWEN_LANGUAGES = ['chinese', 'english', 'japanese', 'korean', 'german', 'french', 'russian', 'portuguese', 'spanish', 'italian'] as const;

const PRIMARY_SUBTAG_TO_LANGUAGE: Record<string, string> = {
  zh: 'chinese', cmn: 'chinese', yue: 'chinese',
  en: 'english', ja: 'japanese', ko: 'korean', de: 'german', fr: 'french',
  ru: 'russian', pt: 'portuguese', es: 'spanish', it: 'italian',
};

/** The language name for a tag ('en-GB' → 'english'; 'english' → 'english'), or null if unknown. */
export function languageFromTag(tag: string): string | null {
  const lower = tag.trim().toLowerCase();
  if ((QWEN_LANGUAGES as readonly string[]).includes(lower)) return lower;
  if (!/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/.test(lower)) return null;
  return PRIMARY_SUBTAG_TO_LANGUAGE[lower.split('-')[0]] ?? null;
}
