/**
 * The fetch the model manager uses when the caller injects none: Node's fetch, or, when
 * HTTPS_PROXY / HTTP_PROXY is set, undici's fetch through an EnvHttpProxyAgent (which also
 * honours NO_PROXY). The only place that knows about proxies.
 */
import { EnvHttpProxyAgent, fetch as undiciFetch } from 'undici';

/** The subset of fetch the hub client calls. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export function proxyUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string | null {
  return env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy || null;
}

export function createHubFetch(env: NodeJS.ProcessEnv = process.env): FetchLike {
  if (proxyUrlFromEnv(env) === null) return (url, init) => fetch(url, init);
  const dispatcher = new EnvHttpProxyAgent({
    httpProxy: env.HTTP_PROXY || env.http_proxy || undefined,
    httpsProxy: env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy || undefined,
    noProxy: env.NO_PROXY || env.no_proxy || undefined,
  });
  // undici's Response matches the global one at run time; only the declared types differ.
  return (url, init) => undiciFetch(url, { ...(init as object), dispatcher }) as unknown as Promise<Response>;
}
