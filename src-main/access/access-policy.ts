/**
 * One access policy for every entry point of the headless host (HTTP API, WebSocket bridge,
 * static UI, health probes): the Host allowlist against DNS rebinding, the same list for Origin,
 * the token (Bearer header, or a session cookie set from the one-time URL the CLI prints) and the
 * caller's role. Browsers sign in once per one-time code (the CLI prints a fresh one after each use)
 * or with the user's own token; either way they get a session cookie. Knows requests only through
 * the few header fields it reads; no I/O.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import os from 'node:os';

export type EntryPoint = 'api' | 'ui' | 'ws' | 'health';

/** 'admin' may use every channel (the local UI session); 'client' the public contract only. */
export type CallerRole = 'admin' | 'client';

export interface AccessRequest {
  host: string | undefined;
  origin: string | undefined;
  authorization: string | undefined;
  cookie: string | undefined;
  /** The peer address as the socket reports it (e.g. '127.0.0.1', '::ffff:127.0.0.1', '::1'). */
  remoteAddress: string | undefined;
}

export type AccessDecision =
  | { ok: true; role: CallerRole }
  | { ok: false; status: 401 | 403; code: 'unauthorized' | 'forbidden'; message: string };

export interface AccessPolicyOptions {
  /** The address the server is bound to ('127.0.0.1', '::1', '0.0.0.0', a LAN address, ...). */
  boundHost: string;
  port: number;
  /** A token the user chose (--token / STUDIO_TOKEN): then every entry point needs it. */
  userToken?: string;
  /** Extra Host names to accept (e.g. a DNS name of this machine), from --allow-host. */
  extraHosts?: readonly string[];
  /** For tests: the machine's own addresses when bound to a wildcard address. */
  localAddresses?: () => readonly string[];
}

export const SESSION_COOKIE = 'studio_session';
/** Signed-in browsers kept at once; past it, a session never used since sign-in gives way, a used one never does. */
export const MAX_SESSIONS = 64;

/** What a sign-in (the `?token=` of a sign-in link) came to. */
export type SignIn =
  | { ok: true; sessionId: string; usedOneTimeCode: boolean }
  | { ok: false; reason: 'wrong-token' | 'too-many-sessions'; message: string };

/** True for 127.0.0.0/8, ::1 and IPv4-mapped 127.x — decided from the address, not a name prefix. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.replace(/^\[|\]$/g, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  const v4 = mapped ? mapped[1] : a;
  if (isIP(v4) === 4) return v4.split('.')[0] === '127';
  if (isIP(a) === 6) return a === '::1' || a === '0:0:0:0:0:0:0:1';
  return false;
}

/**
 * Whom a connection's quotas count against: this machine ('local': its UI session and its programs)
 * or a remote client by its peer address, however many sockets, requests or sign-ins it opens.
 */
export function clientIdOf(remoteAddress: string | undefined): string {
  if (isLoopbackAddress(remoteAddress)) return 'local';
  const a = (remoteAddress ?? '?').toLowerCase();
  return `remote ${/^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a)?.[1] ?? a}`;
}

/** Whether binding to `host` keeps the server on this machine ('localhost' resolves to loopback). */
export function isLoopbackBind(host: string): boolean {
  return host === 'localhost' || isLoopbackAddress(host);
}

const isWildcard = (host: string) => host === '0.0.0.0' || host === '::' || host === '[::]';

/** Splits a Host header value into a lower-case name (IPv6 without brackets) and a port. */
export function parseHostHeader(value: string): { name: string; port: number | null } | null {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i.exec(value.trim());
  if (!m) return null;
  return { name: m[1].replace(/^\[|\]$/g, '').toLowerCase(), port: m[2] === undefined ? null : Number(m[2]) };
}

/** RFC 7235: the auth scheme is case-insensitive; one or more spaces before the credentials. */
const BEARER = /^bearer +(\S+) *$/i;

function sameSecret(given: string, want: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

const newSecret = (): string => randomBytes(24).toString('base64url');

export class AccessPolicy {
  /** The Bearer token programs send: the user's token, or a random one for this start. */
  readonly bearerToken: string;
  /** The code of the current sign-in link; replaced as soon as a browser signs in with it. */
  private oneTimeCode = newSecret();
  private readonly allowedHostNames: Set<string>;
  /** Session id → whether the browser has presented it since signing in. */
  private readonly sessions = new Map<string, { presented: boolean }>();
  private port: number;

  constructor(private readonly options: AccessPolicyOptions) {
    this.bearerToken = options.userToken ?? newSecret();
    this.port = options.port;
    const names = ['localhost', '127.0.0.1', '::1', ...(options.extraHosts ?? [])];
    if (isWildcard(options.boundHost)) {
      const local = options.localAddresses?.() ?? Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
      names.push(...local, os.hostname());
    } else {
      names.push(options.boundHost);
    }
    this.allowedHostNames = new Set(names.map((n) => n.replace(/^\[|\]$/g, '').toLowerCase()));
  }

  private boundLoopback: boolean | null = null;

  /**
   * What listen() actually bound: the port (0 asks for any) and the resolved address, which decides
   * loopback from now on (a name such as 'my-laptop' may resolve to a LAN address).
   */
  setBound(address: string, port: number): void {
    this.port = port;
    this.boundLoopback = isLoopbackAddress(address);
    if (!isWildcard(address)) this.allowedHostNames.add(address.replace(/^\[|\]$/g, '').toLowerCase());
  }

  /** Whether the server is reachable only from this machine. */
  get loopbackOnly(): boolean {
    return this.boundLoopback ?? isLoopbackBind(this.options.boundHost);
  }

  /** Whether the API asks for a token: always beyond loopback, and whenever the user set one. */
  get apiNeedsToken(): boolean {
    return this.options.userToken !== undefined || !this.loopbackOnly;
  }

  /** The Host header names this server (DNS rebinding sends the attacker's name). */
  hostAllowed(host: string | undefined): boolean {
    if (!host) return false;
    const parsed = parseHostHeader(host);
    if (!parsed || !this.allowedHostNames.has(parsed.name)) return false;
    return (parsed.port ?? 80) === this.port;
  }

  /** No Origin (a program, not a browser) or an Origin that names this server. */
  originAllowed(origin: string | undefined): boolean {
    if (origin === undefined) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    const defaultPort = url.protocol === 'https:' ? 443 : 80;
    const name = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return this.allowedHostNames.has(name) && (url.port === '' ? defaultPort : Number(url.port)) === this.port;
  }

  /** The `?token=` of the sign-in link to print now: valid for one sign-in. */
  get signInCode(): string {
    return this.oneTimeCode;
  }

  /**
   * Trades a sign-in token for a session id (the cookie's value): the one-time code, which is used up
   * (a new one takes its place), or the user's own token (--token), which stays valid because the
   * user chose and holds it. A browser that is signed in already keeps its session, whatever link it
   * opens (nothing is used up). Sessions are never pushed out by new sign-ins: past MAX_SESSIONS one that
   * was never presented gives way; when every one is in use, the sign-in is refused.
   */
  signIn(token: string, cookie?: string): SignIn {
    const current = this.sessionOf(cookie);
    if (current !== null) return { ok: true, sessionId: current, usedOneTimeCode: false };
    const oneTime = sameSecret(token, this.oneTimeCode);
    const userToken = this.options.userToken !== undefined && sameSecret(token, this.options.userToken);
    if (!oneTime && !userToken) {
      return { ok: false, reason: 'wrong-token', message: 'this sign-in link is used up or wrong; open the newest link `studio serve` printed in its terminal (each link signs in one browser)' };
    }
    if (this.sessions.size >= MAX_SESSIONS) {
      const idle = [...this.sessions].find(([, s]) => !s.presented);
      if (!idle) {
        return { ok: false, reason: 'too-many-sessions', message: `${MAX_SESSIONS} browsers are signed in already; restart the studio to sign them all out, then sign in again` };
      }
      this.sessions.delete(idle[0]);
    }
    if (oneTime) this.oneTimeCode = newSecret();
    const id = newSecret();
    this.sessions.set(id, { presented: false });
    return { ok: true, sessionId: id, usedOneTimeCode: oneTime };
  }

  sessionCookie(sessionId: string): string {
    return `${SESSION_COOKIE}=${sessionId}; HttpOnly; SameSite=Strict; Path=/`;
  }

  private hasBearer(authorization: string | undefined): boolean {
    const m = BEARER.exec(authorization ?? '');
    return m !== null && sameSecret(m[1], this.bearerToken);
  }

  /** The session the cookie names (marking it presented), or null. */
  private sessionOf(cookie: string | undefined): string | null {
    const id = cookieValue(cookie, SESSION_COOKIE);
    if (id === null) return null;
    for (const [sessionId, session] of this.sessions) {
      if (sameSecret(id, sessionId)) {
        session.presented = true;
        return sessionId;
      }
    }
    return null;
  }

  private hasSession(cookie: string | undefined): boolean {
    return this.sessionOf(cookie) !== null;
  }

  /** The decision for one request at one entry point. */
  decide(entry: EntryPoint, req: AccessRequest): AccessDecision {
    if (!this.hostAllowed(req.host)) {
      return { ok: false, status: 403, code: 'forbidden', message: `Host '${String(req.host ?? '').slice(0, 100)}' is not this server; use http://127.0.0.1:${this.port}` };
    }
    if (!this.originAllowed(req.origin)) {
      return { ok: false, status: 403, code: 'forbidden', message: 'cross-origin requests are refused; call the API from a program or from the studio page itself' };
    }
    const local = isLoopbackAddress(req.remoteAddress);
    if (!local && this.loopbackOnly) {
      return { ok: false, status: 403, code: 'forbidden', message: 'this server answers loopback clients only' };
    }
    const credential = this.hasBearer(req.authorization) || this.hasSession(req.cookie);
    const role: CallerRole = local ? 'admin' : 'client';
    switch (entry) {
      case 'health':
        return { ok: true, role: 'client' };
      case 'api':
        if (this.apiNeedsToken && !this.hasBearer(req.authorization) && !this.hasSession(req.cookie)) {
          return { ok: false, status: 401, code: 'unauthorized', message: 'missing or wrong token; send the header Authorization: Bearer <token>' };
        }
        return { ok: true, role: 'client' };
      case 'ui':
      case 'ws':
        if (!credential) {
          return { ok: false, status: 401, code: 'unauthorized', message: 'sign in with the link `studio serve` printed in its terminal (http://…/?token=…; each link signs in one browser, and a new one is printed after each use), or send Authorization: Bearer <token>' };
        }
        return { ok: true, role };
    }
  }
}
