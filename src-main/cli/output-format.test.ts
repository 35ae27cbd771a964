// `studio synth -o`: the format follows the extension (any case), and an extension that names no
// format, a missing one, or --float with a non-WAV file is a usage error naming the fix, refused
// before the model loads (runCli exits 2 with no model given).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from './cli';
import { UsageError } from './cli-errors';
import { outputFormatForPath } from './output-format';

describe('outputFormatForPath', () => {
  it('reads the format from the extension, in any case', () => {
    expect(outputFormatForPath('clip.mp3', false)).toBe('mp3');
    expect(outputFormatForPath('/tmp/take.one.WAV', true)).toBe('wav');
    expect(outputFormatForPath('a.opus', false)).toBe('opus');
    expect(outputFormatForPath('a.aac', false)).toBe('aac');
    expect(outputFormatForPath('a.flac', false)).toBe('flac');
    expect(outputFormatForPath('a.pcm', false)).toBe('pcm');
  });

  it('refuses an unknown or missing extension naming the accepted ones, and --float for anything but WAV', () => {
    expect(() => outputFormatForPath('clip.m4a', false)).toThrow(UsageError);
    try {
      outputFormatForPath('clip.m4a', false);
    } catch (err) {
      expect((err as UsageError).message).toMatch(/clip\.m4a has the extension '\.m4a'/);
      expect((err as UsageError).fix).toBe('end it with one of .mp3, .opus, .aac, .flac, .wav, .pcm (the format follows the extension)');
    }
    expect(() => outputFormatForPath('clip', false)).toThrow(/has no extension/);
    expect(() => outputFormatForPath('clip.mp3', true)).toThrow(/--float writes 32-bit float WAV but the output file clip\.mp3 is mp3/);
  });
});

describe('studio synth -o with a bad extension', () => {
  afterEach(() => vi.restoreAllMocks());

  it('exits 2 with the accepted extensions on stderr, before loading a model', async () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    expect(await runCli(['synth', 'Hi.', '--model', '/nonexistent/model', '-o', '/tmp/clip.ogg'])).toBe(2);
    expect(lines.join('')).toMatch(/fix: end it with one of \.mp3, \.opus, \.aac, \.flac, \.wav, \.pcm/);
  });
});
