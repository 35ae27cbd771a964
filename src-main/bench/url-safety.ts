/**
 * Keeps the benchmark on the local machine unless asked otherwise: a target URL must be http(s)
 * on a loopback host, or the caller must pass allowRemote. Pure.
 */
import { StudioError } from '../../src-shared/errors';

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  return host === '::ffff:127.0.0.1';
}

/** Parses and checks the URL; throws 'invalid-argument' naming allowRemote for a non-loopback host. */
export function checkTargetUrl(url: string, allowRemote: boolean): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StudioError('invalid-argument', `target url "${url}" is not a URL; pass e.g. http://127.0.0.1:8080`, { field: 'url', url });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new StudioError('invalid-argument', `target url "${url}" uses ${parsed.protocol}; only http: and https: are supported`, { field: 'url', url });
  }
  if (!allowRemote && !isLoopbackHost(parsed.hostname)) {
    throw new StudioError(
      'invalid-argument',
      `target host "${parsed.hostname}" is not loopback; benchmarks load a server heavily, so a remote target needs the explicit flag allowRemote (CLI --allow-remote)`,
      { field: 'allowRemote', url, hostname: parsed.hostname },
    );
  }
  return parsed;
}
