// Vendor voice names map by the vendor's published gender and language to the model's speakers,
// and the parse result (warnings and voiceMappings) shows each mapping.
import { describe, expect, it } from 'vitest';
import { corpusOptions, describeSegments } from '../corpus/corpus-harness';
import { parseSsml } from '../parse-ssml';
import { lookupVendorVoice } from './vendor-voice';

describe('lookupVendorVoice', () => {
  it.each([
    ['en-US-JennyNeural', 'female'], ['en-US-AriaNeural', 'female'], ['en-US-AvaMultilingualNeural', 'female'], ['en-US-EmmaNeural', 'female'], ['en-US-Ava:DragonHDLatestNeural', 'female'],
    ['en-US-GuyNeural', 'male'], ['en-US-AndrewNeural', 'male'], ['en-US-BrianMultilingualNeural', 'male'], ['en-US-DavisNeural', 'male'], ['en-GB-SoniaNeural', 'female'], ['en-GB-RyanNeural', 'male'],
    ['zh-CN-XiaoxiaoNeural', 'female'], ['zh-CN-YunxiNeural', 'male'], ['zh-CN-sichuan-YunxiNeural', 'male'], ['zh-CN-XiaoxiaoDialectsNeural', 'female'], ['ja-JP-NanamiNeural', 'female'], ['ko-KR-InJoonNeural', 'male'],
    ['Microsoft Server Speech Text to Speech Voice (en-US, JessaNeural)', 'female'],
  ])('Azure %s is %s', (name, gender) => {
    expect(lookupVendorVoice(name)).toMatchObject({ vendor: 'azure', gender });
  });

  it.each([
    ['en-US-Standard-C', 'female'], ['en-US-Standard-B', 'male'], ['en-US-Wavenet-D', 'male'], ['en-US-Wavenet-F', 'female'], ['en-US-Neural2-F', 'female'], ['en-US-Neural2-J', 'male'],
    ['en-US-Studio-O', 'female'], ['en-US-Studio-Q', 'male'], ['en-US-News-N', 'male'], ['en-US-Casual-K', 'male'], ['en-US-Journey-F', 'female'], ['en-GB-Neural2-A', 'female'], ['en-GB-News-J', 'male'],
    ['cmn-CN-Wavenet-A', 'female'], ['cmn-CN-Wavenet-B', 'male'], ['ja-JP-Neural2-B', 'female'], ['ja-JP-Neural2-C', 'male'], ['ko-KR-Neural2-A', 'female'], ['de-DE-Neural2-B', 'male'],
    ['en-GB-Neural2-O', 'male'], ['en-GB-Wavenet-N', 'female'], ['fr-FR-Neural2-G', 'male'], ['it-IT-Neural2-F', 'male'], ['pt-BR-Standard-E', 'male'], ['es-US-News-F', 'female'], ['de-DE-Journey-O', 'female'], ['fr-FR-Polyglot-1', 'male'],
    ['en-US-Chirp3-HD-Charon', 'male'], ['en-US-Chirp3-HD-Aoede', 'female'], ['en-US-Chirp-HD-D', 'male'],
  ])('Google %s is %s', (name, gender) => {
    expect(lookupVendorVoice(name)).toMatchObject({ vendor: 'google', gender });
  });

  it.each([
    ['Joanna', 'female', 'en-US'], ['Matthew', 'male', 'en-US'], ['Amy', 'female', 'en-GB'], ['Brian', 'male', 'en-GB'], ['Zhiyu', 'female', 'cmn-CN'], ['Takumi', 'male', 'ja-JP'], ['Seoyeon', 'female', 'ko-KR'], ['Hans', 'male', 'de-DE'],
  ])('Polly %s is %s in %s', (name, gender, locale) => {
    expect(lookupVendorVoice(name)).toEqual({ vendor: 'polly', gender, locale });
  });

  it('knows the locale but not the gender of a voice missing from the tables, and nothing of a plain name', () => {
    expect(lookupVendorVoice('en-US-ZorblaxNeural')).toEqual({ vendor: 'azure', locale: 'en-US', gender: null });
    expect(lookupVendorVoice('en-US-Neural2-Z')).toEqual({ vendor: 'google', locale: 'en-US', gender: null });
    expect(lookupVendorVoice('Bob')).toBeNull();
  });
});

const turns = (ssml: string, dialect: 'azure' | 'google' | 'polly' | 'auto' = 'auto') => describeSegments(parseSsml(ssml, corpusOptions(false, dialect)).segments);

describe('vendor voices read by the model speakers', () => {
  it('gives a female Azure voice a female speaker and a male one a male speaker, native speakers first', () => {
    expect(turns('<speak><voice name="en-US-JennyNeural">Hi.</voice><voice name="en-US-GuyNeural">Hello.</voice><voice name="en-US-AriaNeural">Hey.</voice><voice name="en-US-DavisNeural">Yo.</voice></speak>')).toEqual([
      'turn0 "Hi." voice=vivian lang=english', 'turn1 "Hello." voice=ryan lang=english', 'turn2 "Hey." voice=serena lang=english', 'turn3 "Yo." voice=aiden lang=english',
    ]);
  });

  it('keeps language and gender for Chinese, Japanese and Korean voices', () => {
    expect(turns('<speak><voice name="zh-CN-XiaoxiaoNeural">你好。</voice><voice name="zh-CN-YunxiNeural">你好。</voice><voice name="ja-JP-NanamiNeural">こんにちは。</voice><voice name="ko-KR-SunHiNeural">안녕하세요.</voice></speak>')).toEqual([
      'turn0 "你好。" voice=vivian lang=chinese', 'turn1 "你好。" voice=uncle_fu lang=chinese', 'turn2 "こんにちは。" voice=ono_anna lang=japanese', 'turn3 "안녕하세요." voice=sohee lang=korean',
    ]);
  });

  it('maps Polly names in any dialect and Google lettered voices by their published gender', () => {
    expect(turns('<speak><voice name="Joanna">Hi.</voice><voice name="Matthew">Hello.</voice></speak>', 'polly')).toEqual(['turn0 "Hi." voice=vivian lang=english', 'turn1 "Hello." voice=ryan lang=english']);
    expect(turns('<speak><voice name="en-US-Wavenet-F">Hi.</voice><voice name="en-US-Wavenet-D">Hello.</voice></speak>', 'google')).toEqual(['turn0 "Hi." voice=vivian lang=english', 'turn1 "Hello." voice=ryan lang=english']);
  });

  it('shows each mapping in the result and in a warning naming the published gender and the speaker', () => {
    const r = parseSsml('<speak><voice name="en-US-EmmaNeural">A.</voice><voice name="en-US-EmmaNeural">B.</voice><voice name="Zhiyu">C.</voice></speak>', corpusOptions(false, 'azure'));
    expect(r.voiceMappings).toEqual([
      { vendorName: 'en-US-EmmaNeural', vendor: 'azure', locale: 'en-US', gender: 'female', speaker: 'vivian' },
      { vendorName: 'Zhiyu', vendor: 'polly', locale: 'cmn-CN', gender: 'female', speaker: 'serena' },
    ]);
    expect(r.warnings[0].message).toBe("<voice> Azure voice 'en-US-EmmaNeural' (female, en-US in Azure's voice list) is not a speaker of this model; speaker 'vivian' (female) reads it in english");
  });

  it('says when a vendor voice is not in the table, and still rejects a name no vendor has', () => {
    const r = parseSsml('<speak><voice name="en-US-ZorblaxNeural">Hi.</voice></speak>', corpusOptions(false, 'azure'));
    expect(r.warnings[0].message).toContain("its gender is not in the studio's Azure voice table");
    expect(() => parseSsml('<speak><voice name="Bob">Hi.</voice></speak>', corpusOptions(false, 'azure'))).toThrow(/voice 'Bob' is not a speaker of this model/);
    expect(parseSsml('<speak>Hi.</speak>', corpusOptions(false)).voiceMappings).toBeUndefined();
  });
});
