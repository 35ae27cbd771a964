/**
 * Google Cloud TTS voice names by the gender Google publishes for them (SSML gender FEMALE or
 * MALE), for the locales of the model's ten languages: lettered voices per locale and type
 * ('F' female, 'M' male, '-' no such letter, from A on), and Chirp 3 HD voices by name. Data only.
 * Source: cloud.google.com/text-to-speech/docs/list-voices-and-types (the supported voices
 * table: language, voice type, voice name, SSML gender), read 2025.
 */

type Letters = string;

/** Journey (and Chirp HD) voices are D male, F and O female in every locale that has them. */
const JOURNEY = '---M-F--------F';

const GOOGLE_LETTERED: Readonly<Record<string, Readonly<Record<string, Letters>>>> = {
  'en-US': { Standard: 'MMFMFFFFMM', Wavenet: 'MMFMFFFFMM', Neural2: 'M-FMFFFFMM', News: '----------FF-M', Studio: '--------------F-M', Casual: '----------M' },
  'en-GB': { Standard: 'FMFM-F-------FM', Wavenet: 'FMFM-F-------FM', Neural2: 'FMFM-F-------FM', News: '------FFFMMMM', Studio: '-MF' },
  'en-AU': { Standard: 'FMFM', Wavenet: 'FMFM', Neural2: 'FMFM', News: '----FFM' },
  'en-IN': { Standard: 'FMMFFM', Wavenet: 'FMMFFM', Neural2: 'FMMF' },
  'cmn-CN': { Standard: 'FMMF', Wavenet: 'FMMF' },
  'cmn-TW': { Standard: 'FMM', Wavenet: 'FMM' },
  'yue-HK': { Standard: 'FMFM' },
  'ja-JP': { Standard: 'FFMM', Wavenet: 'FFMM', Neural2: '-FMM' },
  'ko-KR': { Standard: 'FFMM', Wavenet: 'FFMM', Neural2: 'FFM' },
  'de-DE': { Standard: 'FMFMMFFM', Wavenet: 'FMFMMFFM', Neural2: 'FMFM-FFM', Studio: '-MF' },
  'fr-FR': { Standard: 'FMFMFFM', Wavenet: 'FMFMFFM', Neural2: 'FMFMFFM', Studio: 'F--M' },
  'fr-CA': { Standard: 'FMFM', Wavenet: 'FMFM', Neural2: 'FMFM' },
  'es-ES': { Standard: 'FMFFMFMF', Wavenet: '-MFFMFMF', Neural2: 'FMFFFMMF', Studio: '--F--M' },
  'es-US': { Standard: 'FMM', Wavenet: 'FMM', Neural2: 'FMM', News: '---MMFF', Studio: '-M' },
  'it-IT': { Standard: 'FFMMFM', Wavenet: 'FFMMFM', Neural2: 'F-M--M' },
  'pt-BR': { Standard: 'FMFFM', Wavenet: 'FMFFM', Neural2: 'FMF' },
  'pt-PT': { Standard: 'FMMFFM', Wavenet: 'FMMFFM' },
  'ru-RU': { Standard: 'FMFMF', Wavenet: 'FMFMF' },
};

/** Chirp 3 HD voices carry a star's name and the same gender in every locale. */
const CHIRP3_FEMALE = ['Achernar', 'Aoede', 'Autonoe', 'Callirrhoe', 'Despina', 'Erinome', 'Gacrux', 'Kore', 'Laomedeia', 'Leda', 'Pulcherrima', 'Sulafat', 'Vindemiatrix', 'Zephyr'];
const CHIRP3_MALE = ['Achird', 'Algenib', 'Algieba', 'Alnilam', 'Charon', 'Enceladus', 'Fenrir', 'Iapetus', 'Orus', 'Puck', 'Rasalgethi', 'Sadachbia', 'Sadaltager', 'Schedar', 'Umbriel', 'Zubenelgenubi'];

/** en-US-Neural2-F → female; en-US-Chirp3-HD-Charon → male; null when Google's table has no such voice. */
export function googleVoiceGender(locale: string, rest: string): 'female' | 'male' | null {
  const chirp = /^Chirp3-HD-(\w+)$/.exec(rest);
  if (chirp) return CHIRP3_FEMALE.includes(chirp[1]) ? 'female' : CHIRP3_MALE.includes(chirp[1]) ? 'male' : null;
  if (rest === 'Polyglot-1') return 'male';
  const m = /^([A-Za-z0-9]+?)(?:-HD)?-([A-Z])$/.exec(rest);
  if (!m) return null;
  const letters = m[1] === 'Journey' || m[1] === 'Chirp' ? JOURNEY : GOOGLE_LETTERED[locale]?.[m[1]];
  const g = letters?.[m[2].charCodeAt(0) - 65];
  return g === 'F' ? 'female' : g === 'M' ? 'male' : null;
}
