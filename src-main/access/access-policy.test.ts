import { describe, expect, it } from 'vitest';
import { AccessPolicy, MAX_SESSIONS, isLoopbackAddress, parseHostHeader, type AccessRequest, type SignIn } from './access-policy';

const req = (over: Partial<AccessRequest> = {}): AccessRequest => ({
  host: '127.0.0.1:7860',
  origin: undefined,
  authorization: undefined,
  cookie: undefined,
  remoteAddress: '127.0.0.1',
  ...over,
});

describe('isLoopbackAddress', () => {
  it('decides from the address, not from a name prefix', () => {
    for (const a of ['127.0.0.1', '127.8.9.1', '::1', '::ffff:127.0.0.1', '[::1]']) expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ['127.evil.example', 'localhost.example.com', '10.0.0.1', '::ffff:10.0.0.1', '128.0.0.1', '', undefined]) expect(isLoopbackAddress(a)).toBe(false);
  });
});

describe('parseHostHeader', () => {
  it('splits names and ports, IPv6 included, and refuses junk', () => {
    expect(parseHostHeader('LocalHost:7860')).toEqual({ name: 'localhost', port: 7860 });
    expect(parseHostHeader('[::1]:80')).toEqual({ name: '::1', port: 80 });
    expect(parseHostHeader('evil.example')).toEqual({ name: 'evil.example', port: null });
    expect(parseHostHeader('a b')).toBeNull();
    expect(parseHostHeader('x:y')).toBeNull();
  });
});

describe('AccessPolicy on loopback without a user token', () => {
  const policy = new AccessPolicy({ boundHost: '127.0.0.1', port: 7860 });

  it('refuses a rebinding Host and a foreign Origin at every entry point', () => {
    for (const entry of ['api', 'ui', 'ws', 'health'] as const) {
      expect(policy.decide(entry, req({ host: 'attacker.example:7860' }))).toMatchObject({ ok: false, status: 403 });
      expect(policy.decide(entry, req({ host: '127.0.0.1:9999' }))).toMatchObject({ ok: false, status: 403 });
      expect(policy.decide(entry, req({ host: undefined }))).toMatchObject({ ok: false, status: 403 });
      expect(policy.decide(entry, req({ origin: 'https://evil.example' }))).toMatchObject({ ok: false, status: 403 });
      expect(policy.decide(entry, req({ origin: 'null' }))).toMatchObject({ ok: false, status: 403 });
    }
  });

  it('lets programs on this machine use the API without a token, and same-origin pages too', () => {
    expect(policy.decide('api', req())).toEqual({ ok: true, role: 'client' });
    expect(policy.decide('api', req({ host: 'localhost:7860', origin: 'http://localhost:7860' }))).toEqual({ ok: true, role: 'client' });
  });

  it('asks the UI and the WebSocket for the token, then makes the local session admin', () => {
    expect(policy.decide('ws', req())).toMatchObject({ ok: false, status: 401 });
    expect(policy.decide('ui', req())).toMatchObject({ ok: false, status: 401 });
    expect(policy.signIn('wrong')).toMatchObject({ ok: false, reason: 'wrong-token' });
    const session = sessionOf(policy.signIn(policy.signInCode));
    expect(policy.sessionCookie(session)).toMatch(/HttpOnly; SameSite=Strict/);
    expect(policy.decide('ws', req({ cookie: `other=1; studio_session=${session}` }))).toEqual({ ok: true, role: 'admin' });
    expect(policy.decide('ws', req({ authorization: `Bearer ${policy.bearerToken}` }))).toEqual({ ok: true, role: 'admin' });
    expect(policy.decide('ws', req({ authorization: policy.bearerToken }))).toMatchObject({ ok: false }); // no 'Bearer ' prefix
  });

  it('accepts the Bearer scheme in any letter case, as RFC 7235 says', () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer', 'bEaReR']) {
      expect(policy.decide('ws', req({ authorization: `${scheme} ${policy.bearerToken}` })), scheme).toEqual({ ok: true, role: 'admin' });
    }
    expect(policy.decide('ws', req({ authorization: `Basic ${policy.bearerToken}` }))).toMatchObject({ ok: false, status: 401 });
  });

  it('uses up a sign-in link at its first sign-in; the next link signs in one more browser', () => {
    const local = new AccessPolicy({ boundHost: '127.0.0.1', port: 7860 });
    const first = local.signInCode;
    expect(local.signIn(first)).toMatchObject({ ok: true, usedOneTimeCode: true });
    expect(local.signIn(first)).toMatchObject({ ok: false, reason: 'wrong-token', message: expect.stringMatching(/used up/) });
    const next = local.signInCode;
    expect(next).not.toBe(first);
    expect(local.signIn(next)).toMatchObject({ ok: true });
    expect(local.signIn(next)).toMatchObject({ ok: false });
    // The sign-in code is not a Bearer token, and the Bearer token is not a sign-in code.
    expect(local.decide('ws', req({ authorization: `Bearer ${local.signInCode}` }))).toMatchObject({ ok: false, status: 401 });
    expect(local.signIn(local.bearerToken)).toMatchObject({ ok: false });
  });
});

function sessionOf(signIn: SignIn): string {
  if (!signIn.ok) throw new Error(`sign-in refused: ${signIn.message}`);
  return signIn.sessionId;
}

describe('AccessPolicy sessions with a user token', () => {
  it('keeps a browser in use signed in however often the token URL is visited', () => {
    const policy = new AccessPolicy({ boundHost: '127.0.0.1', port: 7860, userToken: 'T0k3n' });
    const mine = sessionOf(policy.signIn('T0k3n'));
    const cookie = `studio_session=${mine}`;
    expect(policy.decide('ui', req({ cookie }))).toEqual({ ok: true, role: 'admin' });
    for (let i = 0; i < MAX_SESSIONS + 6; i++) expect(policy.signIn('T0k3n').ok).toBe(true); // 70 visits, none presenting its cookie
    expect(policy.decide('ui', req({ cookie }))).toEqual({ ok: true, role: 'admin' });
  });

  it('refuses a new sign-in, naming the fix, when every session is in use; none is pushed out', () => {
    const policy = new AccessPolicy({ boundHost: '127.0.0.1', port: 7860, userToken: 'T0k3n' });
    const cookies = Array.from({ length: MAX_SESSIONS }, () => `studio_session=${sessionOf(policy.signIn('T0k3n'))}`);
    for (const cookie of cookies) expect(policy.decide('ui', req({ cookie })).ok).toBe(true);
    expect(policy.signIn('T0k3n')).toMatchObject({ ok: false, reason: 'too-many-sessions', message: expect.stringMatching(/restart the studio/) });
    for (const cookie of cookies) expect(policy.decide('ui', req({ cookie })).ok).toBe(true);
  });

  it('keeps the session of a signed-in browser that opens a sign-in link again, using nothing up', () => {
    const policy = new AccessPolicy({ boundHost: '127.0.0.1', port: 7860, userToken: 'T0k3n' });
    const cookie = `studio_session=${sessionOf(policy.signIn('T0k3n'))}`;
    for (let i = 0; i < MAX_SESSIONS + 6; i++) expect(policy.signIn('T0k3n', cookie)).toMatchObject({ ok: true, sessionId: cookie.split('=')[1], usedOneTimeCode: false });
    const code = policy.signInCode;
    expect(policy.signIn(code, cookie)).toMatchObject({ ok: true, usedOneTimeCode: false });
    expect(policy.signInCode).toBe(code); // still there for another browser
    expect(policy.signIn('T0k3n')).toMatchObject({ ok: true }); // room for a new browser: revisits took none
  });
});

describe('AccessPolicy beyond loopback', () => {
  const policy = new AccessPolicy({ boundHost: '0.0.0.0', port: 7860, userToken: 'T0k3n', localAddresses: () => ['192.0.2.10'] });

  it('guards every entry point but health with the token, from any client', () => {
    const lan = { host: '192.0.2.10:7860', remoteAddress: '192.0.2.99' };
    expect(policy.decide('api', req(lan))).toMatchObject({ ok: false, status: 401 });
    expect(policy.decide('ws', req(lan))).toMatchObject({ ok: false, status: 401 });
    expect(policy.decide('ui', req(lan))).toMatchObject({ ok: false, status: 401 });
    expect(policy.decide('api', req())).toMatchObject({ ok: false, status: 401 }); // loopback too
    expect(policy.decide('health', req(lan))).toMatchObject({ ok: true });
    expect(policy.decide('api', req({ ...lan, authorization: 'Bearer T0k3n' }))).toEqual({ ok: true, role: 'client' });
  });

  it('gives a remote token holder the public contract, never admin', () => {
    expect(policy.decide('ws', req({ host: '192.0.2.10:7860', remoteAddress: '192.0.2.99', authorization: 'Bearer T0k3n' }))).toEqual({ ok: true, role: 'client' });
    expect(policy.decide('ws', req({ authorization: 'Bearer T0k3n' }))).toEqual({ ok: true, role: 'admin' });
  });

  it('accepts the machine address and loopback names as Host, nothing else', () => {
    expect(policy.hostAllowed('192.0.2.10:7860')).toBe(true);
    expect(policy.hostAllowed('[::1]:7860')).toBe(true);
    expect(policy.hostAllowed('192.0.2.11:7860')).toBe(false);
  });
});

describe('AccessPolicy after listen()', () => {
  it('decides loopback from the address the name resolved to', () => {
    const policy = new AccessPolicy({ boundHost: 'my-laptop', port: 0, userToken: 'T' });
    policy.setBound('192.0.2.7', 7860);
    expect(policy.loopbackOnly).toBe(false);
    expect(policy.hostAllowed('192.0.2.7:7860')).toBe(true);
    expect(policy.hostAllowed('my-laptop:7860')).toBe(true);
    const local = new AccessPolicy({ boundHost: 'localhost', port: 0 });
    local.setBound('::1', 7861);
    expect(local.loopbackOnly).toBe(true);
    expect(local.decide('api', req({ host: 'localhost:7861', remoteAddress: '::1' }))).toEqual({ ok: true, role: 'client' });
  });
});
