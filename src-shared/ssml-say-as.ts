/**
 * The say-as vocabulary, one list per vendor as each documents its interpret-as values: the SSML parser
 * (main) checks and reads them, the SSML editor (renderer) offers them as completions. Pure data.
 */

// docs.aws.amazon.com/polly/latest/dg/say-as-tag.html
export const SAY_AS_POLLY: readonly string[] = ['characters', 'spell-out', 'cardinal', 'number', 'ordinal', 'digits', 'fraction', 'unit', 'date', 'time', 'address', 'expletive', 'telephone'];
// learn.microsoft.com/azure/ai-services/speech-service/speech-synthesis-markup-pronunciation#say-as-element
export const SAY_AS_AZURE: readonly string[] = ['characters', 'spell-out', 'cardinal', 'number', 'ordinal', 'number_digit', 'fraction', 'date', 'time', 'duration', 'telephone', 'currency', 'address', 'name'];
// cloud.google.com/text-to-speech/docs/ssml#say-as
export const SAY_AS_GOOGLE: readonly string[] = ['currency', 'telephone', 'verbatim', 'spell-out', 'date', 'characters', 'cardinal', 'ordinal', 'fraction', 'expletive', 'bleep', 'unit', 'time'];

/** Every value the studio reads (W3C SSML 1.1 takes them all); expletive and bleep are silenced rather than spoken. */
export const SAY_AS_ALL: readonly string[] = [...new Set([...SAY_AS_POLLY, ...SAY_AS_AZURE, ...SAY_AS_GOOGLE, 'digits'])];
