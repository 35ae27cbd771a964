/**
 * Amazon Polly voice names (they carry no locale) with the gender and language Polly publishes
 * for them. Data only. Source: docs.aws.amazon.com/polly/latest/dg/available-voices.html (the
 * available voices table: language, language code, name, gender), read 2025.
 */

/** name → [gender, language code]. */
export const POLLY_VOICES: ReadonlyMap<string, readonly ['female' | 'male', string]> = new Map(
  (
    [
      // English
      ['Danielle', 'F', 'en-US'], ['Gregory', 'M', 'en-US'], ['Ivy', 'F', 'en-US'], ['Joanna', 'F', 'en-US'], ['Kendra', 'F', 'en-US'], ['Kimberly', 'F', 'en-US'], ['Salli', 'F', 'en-US'],
      ['Joey', 'M', 'en-US'], ['Justin', 'M', 'en-US'], ['Kevin', 'M', 'en-US'], ['Matthew', 'M', 'en-US'], ['Ruth', 'F', 'en-US'], ['Stephen', 'M', 'en-US'], ['Patrick', 'M', 'en-US'],
      ['Amy', 'F', 'en-GB'], ['Emma', 'F', 'en-GB'], ['Brian', 'M', 'en-GB'], ['Arthur', 'M', 'en-GB'], ['Nicole', 'F', 'en-AU'], ['Olivia', 'F', 'en-AU'], ['Russell', 'M', 'en-AU'],
      ['Aditi', 'F', 'en-IN'], ['Raveena', 'F', 'en-IN'], ['Kajal', 'F', 'en-IN'], ['Niamh', 'F', 'en-IE'], ['Aria', 'F', 'en-NZ'], ['Ayanda', 'F', 'en-ZA'], ['Jasmine', 'F', 'en-SG'], ['Geraint', 'M', 'en-GB-WLS'],
      // Chinese, Japanese, Korean
      ['Zhiyu', 'F', 'cmn-CN'], ['Hiujin', 'F', 'yue-CN'], ['Mizuki', 'F', 'ja-JP'], ['Takumi', 'M', 'ja-JP'], ['Kazuha', 'F', 'ja-JP'], ['Tomoko', 'F', 'ja-JP'], ['Seoyeon', 'F', 'ko-KR'], ['Jihye', 'F', 'ko-KR'],
      // German, French, Spanish, Italian, Portuguese, Russian
      ['Marlene', 'F', 'de-DE'], ['Vicki', 'F', 'de-DE'], ['Hans', 'M', 'de-DE'], ['Daniel', 'M', 'de-DE'], ['Hannah', 'F', 'de-AT'], ['Sabrina', 'F', 'de-CH'],
      ['Celine', 'F', 'fr-FR'], ['Céline', 'F', 'fr-FR'], ['Lea', 'F', 'fr-FR'], ['Léa', 'F', 'fr-FR'], ['Mathieu', 'M', 'fr-FR'], ['Remi', 'M', 'fr-FR'], ['Rémi', 'M', 'fr-FR'], ['Chantal', 'F', 'fr-CA'], ['Gabrielle', 'F', 'fr-CA'], ['Liam', 'M', 'fr-CA'], ['Isabelle', 'F', 'fr-BE'],
      ['Conchita', 'F', 'es-ES'], ['Lucia', 'F', 'es-ES'], ['Lucía', 'F', 'es-ES'], ['Enrique', 'M', 'es-ES'], ['Sergio', 'M', 'es-ES'], ['Mia', 'F', 'es-MX'], ['Andres', 'M', 'es-MX'], ['Andrés', 'M', 'es-MX'],
      ['Lupe', 'F', 'es-US'], ['Penelope', 'F', 'es-US'], ['Penélope', 'F', 'es-US'], ['Miguel', 'M', 'es-US'], ['Pedro', 'M', 'es-US'],
      ['Carla', 'F', 'it-IT'], ['Bianca', 'F', 'it-IT'], ['Giorgio', 'M', 'it-IT'], ['Adriano', 'M', 'it-IT'],
      ['Camila', 'F', 'pt-BR'], ['Vitoria', 'F', 'pt-BR'], ['Vitória', 'F', 'pt-BR'], ['Ricardo', 'M', 'pt-BR'], ['Thiago', 'M', 'pt-BR'], ['Ines', 'F', 'pt-PT'], ['Inês', 'F', 'pt-PT'], ['Cristiano', 'M', 'pt-PT'],
      ['Tatyana', 'F', 'ru-RU'], ['Maxim', 'M', 'ru-RU'],
    ] as const
  ).map(([name, g, locale]) => [name.toLowerCase(), [g === 'F' ? 'female' : 'male', locale]] as const),
);
