/**
 * Turns hub HTTP answers and transport failures into StudioErrors whose messages say what
 * failed and how to fix it (token, repo name, network). Pure apart from reading a response body.
 */
import { StudioError } from '../../src-shared/errors';

export const HF_TOKEN_HELP =
  'create a read token at https://huggingface.co/settings/tokens, accept the model terms on its hub page if it is gated, then set HF_TOKEN=hf_… in the environment (or pass token to the model manager)';

export async function hubErrorFromResponse(res: Response, what: string, hasToken: boolean): Promise<StudioError> {
  const errorCode = res.headers.get('x-error-code') ?? '';
  const hubMessage = res.headers.get('x-error-message') ?? (await res.text().catch(() => '')).slice(0, 200);
  const details = { status: res.status, url: res.url, hubErrorCode: errorCode };
  if (errorCode === 'RepoNotFound' || errorCode === 'RevisionNotFound' || errorCode === 'EntryNotFound' || res.status === 404) {
    const kind = errorCode === 'RevisionNotFound' ? 'revision' : errorCode === 'EntryNotFound' ? 'file' : 'repository or file';
    const tokenHint = hasToken ? '' : ' (private repos also answer this way without a token: set HF_TOKEN if it is private)';
    return new StudioError('not-found', `${what}: the hub has no such ${kind} (HTTP ${res.status}${errorCode ? ` ${errorCode}` : ''}); check the repo id and revision${tokenHint}`, details);
  }
  if (res.status === 401 || res.status === 403 || errorCode === 'GatedRepo') {
    const reason = hasToken
      ? `the token was refused or lacks access (HTTP ${res.status}${errorCode ? ` ${errorCode}` : ''})`
      : `the repo needs a token (HTTP ${res.status}${errorCode ? ` ${errorCode}` : ''})`;
    return new StudioError('unauthorized', `${what}: ${reason}; ${HF_TOKEN_HELP}`, details);
  }
  if (res.status === 429) {
    return new StudioError('network', `${what}: the hub is rate-limiting this machine (HTTP 429); wait a few minutes and pull again`, details);
  }
  return new StudioError('network', `${what}: unexpected HTTP ${res.status}${hubMessage ? ` (${hubMessage.trim()})` : ''}; pull again later`, details);
}

/** A fetch that threw: an abort becomes 'cancelled', anything else 'network' naming the cause. */
export function transportError(err: unknown, what: string, signal?: AbortSignal): StudioError {
  if (err instanceof StudioError) return err;
  if (signal?.aborted) return new StudioError('cancelled', `${what}: cancelled`);
  const cause = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
  return new StudioError('network', `${what}: connection failed (${cause}); check the network or HTTPS_PROXY / NO_PROXY and pull again — partial files are kept and resumed`, { cause });
}
