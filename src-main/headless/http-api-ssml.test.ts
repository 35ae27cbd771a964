// Issue 26's HTTP fields: /api/v1/tts takes ssml_dialect and lenient; /v1/audio/speech takes them
// with input_format "ssml" as an extension of the OpenAI shape.
import { describe, expect, it } from 'vitest';
import { speechToRequest, ttsToRequest } from './http-api';

describe('SSML reading over HTTP', () => {
  it('passes ssml_dialect and lenient on /api/v1/tts into the request', () => {
    expect(ttsToRequest({ ssml: '<speak>x</speak>', voice: 'Ryan', ssml_dialect: 'polly', lenient: true })).toMatchObject({ inputFormat: 'ssml', ssmlOptions: { dialect: 'polly', lenient: true } });
    expect(ttsToRequest({ ssml: '<speak>x</speak>', voice: 'ryan' }).ssmlOptions).toBeUndefined();
  });

  it('reads input as SSML on /v1/audio/speech when input_format is ssml, and refuses speed with it', () => {
    const base = { input: '<speak>x</speak>', voice: 'ryan', response_format: 'wav' as const, speed: 1, stream: false, input_format: 'ssml' as const };
    expect(speechToRequest({ ...base, lenient: true })).toMatchObject({ input: '<speak>x</speak>', inputFormat: 'ssml', ssmlOptions: { lenient: true } });
    expect(speechToRequest({ ...base, input_format: 'text' })).toMatchObject({ inputFormat: 'text' });
    expect(() => speechToRequest({ ...base, speed: 1.5 })).toThrowError(/speed cannot be combined with input_format "ssml"/);
  });
});
