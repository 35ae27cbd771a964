/**
 * The access-log line says what the client got, and agrees with the server's other lines: a client
 * that stops sending the body it declared is logged once as a 400 client-aborted (408 once the
 * request timeout cut it), never as 200 beside an "answered 500" (issue 43).
 */
import { describe, expect, it } from 'vitest';
import net from 'node:net';
import { accessLogLine, accessOutcome, type AccessLogFacts } from './access-log';
import { fakeHostServers } from './testing/fake-host-servers';

const servers = fakeHostServers('studio-access-log-');

const facts = (over: Partial<AccessLogFacts>): AccessLogFacts => ({
  requestId: 'ab12', method: 'POST', path: '/v1/audio/speech', statusCode: 200, headersSent: false, finished: false, requestComplete: false, elapsedMs: 40, requestTimeoutMs: 120_000, ...over,
});

async function until(predicate: () => boolean, timeoutMs = 3_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('accessOutcome', () => {
  it('keeps the status of a response that went out, and notes one cut mid-way', () => {
    expect(accessOutcome(facts({ headersSent: true, finished: true, statusCode: 429 }))).toEqual({ status: 429, note: '' });
    expect(accessOutcome(facts({ headersSent: true, finished: false, statusCode: 200 })).note).toMatch(/closed early/);
  });

  it('logs a body the client stopped sending as 400, or 408 past the request timeout, and a client gone before the answer as 499', () => {
    expect(accessOutcome(facts({}))).toMatchObject({ status: 400, note: expect.stringMatching(/client-aborted: the client stopped sending the body/) });
    expect(accessOutcome(facts({ elapsedMs: 120_000 }))).toMatchObject({ status: 408, note: expect.stringMatching(/client-aborted: the body was not complete after 120000 ms/) });
    expect(accessOutcome(facts({ requestComplete: true }))).toMatchObject({ status: 499, note: expect.stringMatching(/client-aborted/) });
    expect(accessLogLine(facts({}))).toBe('[http] ab12 POST /v1/audio/speech 400 40 ms (client-aborted: the client stopped sending the body it declared)');
  });
});

describe('a client that stops sending its declared body', () => {
  it('is logged once, as 400 client-aborted, with no 500 line', async () => {
    const logs: string[] = [];
    const s = await servers.start({ log: (m) => logs.push(m) });
    const socket = net.connect(s.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(`POST /v1/audio/speech HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"input":`);
    await new Promise((r) => setTimeout(r, 100));
    socket.destroy();
    await until(() => logs.some((l) => l.includes('/v1/audio/speech')));
    await new Promise((r) => setTimeout(r, 100)); // a late "answered 500" line would land here
    const lines = logs.filter((l) => l.includes('/v1/audio/speech'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/POST \/v1\/audio\/speech 400 \d+ ms \(client-aborted/);
    expect(logs.join('\n')).not.toMatch(/ 500|internal/);
  });
});
