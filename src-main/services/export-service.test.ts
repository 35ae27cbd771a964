/**
 * The export service alone (chunks in order, ownership by caller, limits, expiry, consumed on
 * encode) and through the contract in memory (wire encoding, schemas), with the encoded file
 * decoded by an independent decoder.
 */
import { describe, expect, it } from 'vitest';
import { MPEGDecoder } from 'mpg123-decoder';
import { CHANNELS } from '../../src-shared/ipc-contract';
import { EXPORT_CHUNK_MAX_SAMPLES } from '../../src-shared/contract/export';
import { StudioError } from '../../src-shared/errors';
import { Dispatcher } from '../api/dispatcher';
import { createInMemoryBridge } from '../api/testing/in-memory-bridge';
import { ExportService, defaultExportLimits } from './export-service';
import { measureIntegratedLoudness } from '../audio/loudness';
import { StudioServices } from './studio-services';
import type { EngineHostApi } from '../engine-client/engine-host-api';

const RATE_HZ = 24_000;

function tone(numSamples: number, startSample = 0): Float32Array {
  const pcm = new Float32Array(numSamples);
  for (let i = 0; i < numSamples; i++) pcm[i] = 0.4 * Math.sin((2 * Math.PI * 440 * (startSample + i)) / RATE_HZ);
  return pcm;
}

describe('ExportService', () => {
  it('joins the chunks in order and encodes them once', async () => {
    const service = new ExportService();
    expect(service.append('a', 'e1', new Float32Array([0.5, -0.5]))).toEqual({ numSamples: 2 });
    expect(service.append('a', 'e1', new Float32Array([0.25]))).toEqual({ numSamples: 3 });
    const file = await service.encode('a', { exportId: 'e1', sampleRateHz: RATE_HZ, format: 'pcm' });
    expect(file).toMatchObject({ contentType: 'audio/pcm', fileExtension: 'pcm', sampleRateHz: RATE_HZ });
    // 16-bit LE, round(x · 32767) for both signs (pcm16.ts): 0.5 → 16383.5 → 16384 (0x4000), −0.5 → −16383.5 → −16383 (0xC001), 0.25 → 8191.75 → 8192 (0x2000)
    expect(Array.from(file.bytes)).toEqual([0x00, 0x40, 0x01, 0xc0, 0x00, 0x20]);
    expect(service.numOpen).toBe(0);
    await expect(service.encode('a', { exportId: 'e1', sampleRateHz: RATE_HZ, format: 'pcm' })).rejects.toMatchObject({ code: 'not-found' });
  });

  it('keeps each caller’s exports to that caller', async () => {
    const service = new ExportService();
    service.append('a', 'same-id', new Float32Array([0.1]));
    service.append('b', 'same-id', new Float32Array([0.2, 0.2]));
    await expect(service.encode('c', { exportId: 'same-id', sampleRateHz: RATE_HZ, format: 'wav' })).rejects.toMatchObject({ code: 'not-found', message: expect.stringContaining('appendAudio first') });
    expect((await service.encode('b', { exportId: 'same-id', sampleRateHz: RATE_HZ, format: 'pcm' })).bytes.byteLength).toBe(4);
    expect((await service.encode('a', { exportId: 'same-id', sampleRateHz: RATE_HZ, format: 'pcm' })).bytes.byteLength).toBe(2);
  });

  it('bounds open exports per caller and samples per export, and drops idle exports', () => {
    let nowMs = 0;
    const limits = { ...defaultExportLimits(), maxOpenExportsPerClient: 2, maxSamplesPerExport: 10, idleExpiryMs: 1000 };
    const service = new ExportService(limits, () => nowMs);
    service.append('a', 'e1', new Float32Array(4));
    service.append('a', 'e2', new Float32Array(4));
    expect(() => service.append('a', 'e3', new Float32Array(1))).toThrow(expect.objectContaining({ code: 'busy' }));
    service.append('b', 'e3', new Float32Array(1)); // another caller has its own allowance
    expect(() => service.append('a', 'e1', new Float32Array(7))).toThrow(expect.objectContaining({ code: 'input-too-long' }));
    expect(service.numOpen).toBe(2); // the oversized export was dropped
    nowMs = 1001;
    service.append('a', 'e4', new Float32Array(1)); // e2 and b's e3 expired
    expect(service.numOpen).toBe(1);
  });

  it('holds one client to its share over all its connections, and remote clients together to theirs, keeping room for the local session', () => {
    const limits = { ...defaultExportLimits(), maxSamplesPerExport: 10, maxOpenExportsPerClient: 2, maxSamplesPerClient: 10, maxRemoteSamples: 20, maxTotalSamples: 40 };
    const service = new ExportService(limits);
    const socket = (clientId: string, n: number) => ({ callerId: `${clientId}/ws-${n}`, clientId, remote: true });
    // one remote client, five sockets: its share is 10 samples and 2 exports, whichever socket asks
    service.append(socket('10.0.0.9', 1), 'e', new Float32Array(6));
    service.append(socket('10.0.0.9', 2), 'e', new Float32Array(4));
    expect(() => service.append(socket('10.0.0.9', 3), 'e', new Float32Array(1))).toThrow(expect.objectContaining({ code: 'busy', details: expect.objectContaining({ numOpen: 2, limit: 2 }) }));
    expect(() => service.append(socket('10.0.0.9', 2), 'e', new Float32Array(1))).toThrow(expect.objectContaining({ code: 'busy', message: expect.stringContaining('one client may hold 10') }));
    // another remote client has its own share, until remote clients together hold theirs
    service.append(socket('10.0.0.7', 1), 'e', new Float32Array(10));
    expect(() => service.append(socket('10.0.0.5', 1), 'e', new Float32Array(1))).toThrow(expect.objectContaining({ code: 'busy', message: expect.stringContaining('remote clients') }));
    // the local session (the UI's Timeline export) still gets a full share
    expect(service.append({ callerId: 'window-1', clientId: 'local', remote: false }, 'timeline', new Float32Array(10))).toEqual({ numSamples: 10 });
    expect(service.numOpen).toBe(4); // refused exports were not left open
  });

  it('drops a connection’s unfinished exports when it goes away, giving its client its share back', async () => {
    const limits = { ...defaultExportLimits(), maxSamplesPerClient: 10 };
    const service = new ExportService(limits);
    const first = { callerId: 'ws-1', clientId: '10.0.0.9', remote: true };
    const second = { callerId: 'ws-2', clientId: '10.0.0.9', remote: true };
    service.append(first, 'e', new Float32Array(10));
    expect(() => service.append(second, 'e', new Float32Array(1))).toThrow(expect.objectContaining({ code: 'busy' }));
    expect(service.dropCaller('ws-1')).toBe(1);
    expect(service.numOpen).toBe(0);
    expect(service.append(second, 'e', new Float32Array(10))).toEqual({ numSamples: 10 });
    await expect(service.encode(first, { exportId: 'e', sampleRateHz: RATE_HZ, format: 'pcm' })).rejects.toMatchObject({ code: 'not-found' });
  });

  it('bounds the samples held across all callers', () => {
    const service = new ExportService({ ...defaultExportLimits(), maxTotalSamples: 8 });
    service.append('a', 'e1', new Float32Array(5));
    expect(() => service.append('b', 'e1', new Float32Array(4))).toThrow(expect.objectContaining({ code: 'busy', message: expect.stringContaining('retry when they finish') }));
    expect(service.numOpen).toBe(1); // the refused export was not left open
    service.append('b', 'e1', new Float32Array(3));
  });

  it('normalises the export to the loudness target given, and leaves it as sent without one', async () => {
    const pcm16 = (bytes: Uint8Array) => {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return Float32Array.from({ length: bytes.byteLength / 2 }, (_, i) => view.getInt16(i * 2, true) / 32768);
    };
    const quiet = tone(RATE_HZ * 3).map((x) => x / 40);
    const service = new ExportService();
    for (const targetLufs of [-18, -28]) {
      service.append('a', `n${targetLufs}`, quiet);
      const file = await service.encode('a', { exportId: `n${targetLufs}`, sampleRateHz: RATE_HZ, format: 'pcm', loudness: { targetLufs, truePeakCeilingDbtp: -1 } });
      expect(measureIntegratedLoudness(pcm16(file.bytes), RATE_HZ)).toBeCloseTo(targetLufs, 1);
    }
    service.append('a', 'plain', quiet);
    const plain = await service.encode('a', { exportId: 'plain', sampleRateHz: RATE_HZ, format: 'pcm' });
    expect(measureIntegratedLoudness(pcm16(plain.bytes), RATE_HZ)).toBeCloseTo(measureIntegratedLoudness(quiet, RATE_HZ), 1);
  });

  it('forgets an export whose encode fails', async () => {
    const service = new ExportService();
    service.append('a', 'bad', new Float32Array([0, Number.NaN]));
    await expect(service.encode('a', { exportId: 'bad', sampleRateHz: RATE_HZ, format: 'mp3' })).rejects.toBeInstanceOf(StudioError);
    expect(service.numOpen).toBe(0);
  });
});

describe('studio:export over the contract', () => {
  const host: EngineHostApi = {
    onEvent: () => () => {},
    call: (async () => {
      throw new StudioError('unsupported', 'no engine in this test');
    }) as EngineHostApi['call'],
  };
  const services = new StudioServices({ host, appInfo: () => ({ version: 't', hostKind: 'headless', platform: 'linux', userDataDir: '/tmp', syntheticModel: true }) });
  const bridge = createInMemoryBridge(new Dispatcher(services.handlers, { warn: () => {} }), services);

  it('drops an export when the connection that started it goes away', async () => {
    const dispatcher = new Dispatcher(services.handlers, { warn: () => {} });
    const first = createInMemoryBridge(dispatcher, services, 'ws-9', 'client');
    expect(await first.invoke(CHANNELS.appendExportAudio, { exportId: 'gone', pcm: tone(100) })).toMatchObject({ ok: true });
    first.close();
    const again = createInMemoryBridge(dispatcher, services, 'ws-9', 'client');
    expect(await again.invoke(CHANNELS.encodeExportAudio, { exportId: 'gone', sampleRateHz: RATE_HZ, format: 'wav' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    again.close();
  });

  it('counts the exports of every connection of one client against that client', async () => {
    const dispatcher = new Dispatcher(services.handlers, { warn: () => {} });
    const socket = (n: number) => ({ callerId: `ws-${n}`, clientId: 'remote 10.0.0.9', role: 'client' as const, emit: () => {} });
    const append = (n: number) => dispatcher.dispatch(CHANNELS.appendExportAudio, { exportId: 'e', pcm: tone(10) }, socket(n));
    expect(await append(1)).toMatchObject({ ok: true });
    expect(await append(2)).toMatchObject({ ok: true });
    expect(await append(3)).toMatchObject({ ok: false, error: { code: 'busy', details: { numOpen: 2, limit: defaultExportLimits().maxOpenExportsPerClient } } });
    for (const n of [1, 2]) services.detach(`ws-${n}`);
    expect(await append(3)).toMatchObject({ ok: true });
    services.detach('ws-3');
  });

  it('encodes chunked PCM to an MP3 that mpg123 decodes to the same length and tone', async () => {
    const numSamples = RATE_HZ * 2;
    for (let start = 0; start < numSamples; start += 20_000) {
      const reply = await bridge.invoke(CHANNELS.appendExportAudio, { exportId: 'x1', pcm: tone(Math.min(20_000, numSamples - start), start) });
      expect(reply).toEqual({ ok: true, value: { numSamples: Math.min(start + 20_000, numSamples) } });
    }
    const reply = await bridge.invoke(CHANNELS.encodeExportAudio, { exportId: 'x1', sampleRateHz: RATE_HZ, format: 'mp3', bitrateKbps: 96 });
    if (!reply.ok) throw new Error(reply.error.message);
    expect(reply.value).toMatchObject({ contentType: 'audio/mpeg', fileExtension: 'mp3', sampleRateHz: RATE_HZ });
    const decoder = new MPEGDecoder();
    await decoder.ready;
    const decoded = decoder.decode(reply.value.bytes);
    decoder.free();
    expect(decoded.sampleRate).toBe(RATE_HZ);
    // LAME adds 1,105 samples of delay and pads the last 576-sample granule; mpg123 drops part of it.
    expect(decoded.samplesDecoded).toBeGreaterThanOrEqual(numSamples);
    expect(decoded.samplesDecoded).toBeLessThan(numSamples + 1105 + 576);
    // A 440 Hz tone at 0.4 has RMS 0.4/√2 ≈ 0.283; the decoded middle second keeps it within 10 %
    // (measured 0.269: LAME's 96 kbps output is about 5 % quieter). encode-audio.test.ts checks the waveform.
    const middle = decoded.channelData[0].subarray(RATE_HZ / 2, RATE_HZ + RATE_HZ / 2);
    const rms = Math.sqrt(middle.reduce((sum, x) => sum + x * x, 0) / middle.length);
    expect(rms).toBeGreaterThan(0.283 * 0.9);
    expect(rms).toBeLessThan(0.283 * 1.1);
  });

  it('refuses a chunk with NaN or infinite samples as a client error naming pcm, and holds nothing of it', async () => {
    for (const [i, bad] of [NaN, Infinity, -Infinity].entries()) {
      const reply = await bridge.invoke(CHANNELS.appendExportAudio, { exportId: `nan${i}`, pcm: Float32Array.from([0, 0.5, bad, 0]) });
      expect(reply).toMatchObject({ ok: false, error: { code: 'invalid-argument', message: expect.stringContaining('pcm: has NaN or infinite samples') } });
      // nothing was started: encoding it is not-found, not an 'internal' encoder failure
      const encoded = await bridge.invoke(CHANNELS.encodeExportAudio, { exportId: `nan${i}`, sampleRateHz: RATE_HZ, format: 'wav' });
      expect(encoded).toMatchObject({ ok: false, error: { code: 'not-found' } });
    }
  });

  it('rejects an oversized chunk and an unknown format before any work, naming the field', async () => {
    const big = await bridge.invoke(CHANNELS.appendExportAudio, { exportId: 'x2', pcm: new Float32Array(EXPORT_CHUNK_MAX_SAMPLES + 1) });
    expect(big).toMatchObject({ ok: false, error: { code: 'invalid-argument', message: expect.stringContaining('pcm: at most 262144 samples per chunk') } });
    const ogg = await bridge.invoke(CHANNELS.encodeExportAudio, { exportId: 'x2', sampleRateHz: RATE_HZ, format: 'ogg' as never });
    expect(ogg).toMatchObject({ ok: false, error: { code: 'invalid-argument', details: { fields: ['format'] } } });
    const loud = await bridge.invoke(CHANNELS.encodeExportAudio, { exportId: 'x2', sampleRateHz: RATE_HZ, format: 'wav', loudness: { targetLufs: 3, truePeakCeilingDbtp: -1 } });
    expect(loud).toMatchObject({ ok: false, error: { code: 'invalid-argument', message: expect.stringContaining('loudness.targetLufs must be at most -5 LUFS') } });
  });
});
