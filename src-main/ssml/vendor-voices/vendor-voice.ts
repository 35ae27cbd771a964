/**
 * Reads a vendor voice name: which vendor, its locale and the gender the vendor publishes for it
 * (tables beside this file, each naming its source). Azure and Google names carry their locale;
 * Polly names are looked up whole. gender null: the vendor's table does not list the voice. Pure.
 */
import { AZURE_VOICE_GENDERS } from './azure-voices';
import { googleVoiceGender } from './google-voices';
import { POLLY_VOICES } from './polly-voices';

export type VoiceVendor = 'azure' | 'google' | 'polly';

export interface VendorVoice {
  vendor: VoiceVendor;
  locale: string;
  gender: 'female' | 'male' | null;
}

const GOOGLE_NAME = /^([a-z]{2,3}-[A-Z]{2})-((?:Standard|Wavenet|Neural2|Studio|Polyglot|News|Journey|Chirp3-HD|Chirp-HD|Chirp|Casual)\b.*)$/;
/** en-US-JennyNeural, zh-CN-sichuan-YunxiNeural, en-US-Ava:DragonHDLatestNeural, en-US-AvaMultilingualNeural. */
const AZURE_NAME = /^([a-z]{2,3}-[A-Z]{2,4}(?:-[a-z]+)?)-([A-Za-z0-9-]+?)(?:Multilingual|Dialects)?(?:Turbo)?(?:Multilingual)?(?:Neural(?:HD)?|RUS)?(?::\w+)?$/;
/** The older full form: 'Microsoft Server Speech Text to Speech Voice (en-US, JessaNeural)'. */
const AZURE_LONG_NAME = /^Microsoft Server Speech Text to Speech Voice \(([a-z]{2,3}-[A-Z]{2,4}), ([A-Za-z]+?)(?:Neural|RUS)?\)$/;

export function lookupVendorVoice(name: string): VendorVoice | null {
  const trimmed = name.trim();
  const google = GOOGLE_NAME.exec(trimmed);
  if (google) return { vendor: 'google', locale: google[1], gender: googleVoiceGender(google[1], google[2]) };
  const azure = AZURE_LONG_NAME.exec(trimmed) ?? AZURE_NAME.exec(trimmed);
  if (azure) return { vendor: 'azure', locale: azure[1], gender: AZURE_VOICE_GENDERS.get(azure[2].toLowerCase()) ?? null };
  const polly = POLLY_VOICES.get(trimmed.toLowerCase());
  if (polly) return { vendor: 'polly', locale: polly[1], gender: polly[0] };
  return null;
}
