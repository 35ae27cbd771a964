// Issue 26's HTTP fields: /api/v1/tts takes ssml_dialect and lenient; /v1/audio/speech takes them
// with input_format "ssml" as an extension of the OpenAI shape.
import { describe, expect, it } from 'vitest';
import { speechBodySchema, speechToRequest, ttsBodySchema, ttsToRequest } from './synthesis-bodies';

describe('SSML reading over HTTP', () => {
  it('passes ssml_dialect and lenient on /api/v1/tts into the request', () => {
    const body = ttsBodySchema.parse({ ssml: '<speak>x</speak>', voice: 'ryan', ssml_dialect: 'polly', lenient: true });
    expect(ttsToRequest(body, 'ryan')).toMatchObject({ inputFormat: 'ssml', ssmlOptions: { dialect: 'polly', lenient: true } });
    expect(ttsToRequest(ttsBodySchema.parse({ ssml: '<speak>x</speak>', voice: 'ryan' }), 'ryan').ssmlOptions).toBeUndefined();
    expect(ttsBodySchema.safeParse({ ssml: '<speak>x</speak>', voice: 'ryan', ssml_dialect: 'watson' }).success).toBe(false);
  });

  it('reads input as SSML on /v1/audio/speech when input_format is ssml', () => {
    const ssml = speechBodySchema.parse({ input: '<speak>x</speak>', voice: 'ryan', input_format: 'ssml', lenient: true });
    expect(speechToRequest(ssml, 'ryan')).toMatchObject({ input: '<speak>x</speak>', inputFormat: 'ssml', ssmlOptions: { lenient: true } });
    const text = speechBodySchema.parse({ input: '<speak>x</speak>', voice: 'ryan', lenient: true });
    expect(speechToRequest(text, 'ryan')).toMatchObject({ inputFormat: 'text' });
    expect(speechToRequest(text, 'ryan').ssmlOptions).toBeUndefined();
  });
});
