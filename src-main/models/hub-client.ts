/**
 * A small client for the Hugging Face hub's HTTP API: resolve a revision to its commit sha,
 * list its files with sizes and LFS sha256 (tree API, paginated), and open one file's bytes
 * (resolve URL, optional Range, redirects followed by hand so hub headers are read and the
 * token never travels to another origin). Owns no files on disk.
 */
import { StudioError } from '../../src-shared/errors';
import type { FetchLike } from './hub-fetch';
import { hubErrorFromResponse, transportError } from './hub-errors';

export interface HubFile {
  path: string;
  sizeBytes: number;
  /** sha256 of the content for LFS files (tree `lfs.oid`), else null. */
  lfsSha256: string | null;
  /** git blob sha1 (tree `oid`); for non-LFS files this is a checksum of the content. */
  gitOid: string | null;
}

export interface HubRevision {
  repo: string;
  revision: string;
  commitSha: string;
  files: HubFile[];
}

export interface HubFileResponse {
  /** 206 when the Range was honoured, 200 when the whole file follows. */
  status: number;
  body: ReadableStream<Uint8Array>;
  /** Bytes in this response body, when the server said. */
  contentLengthBytes: number | null;
  /** Start offset of the body within the file (0 unless a Range was honoured). */
  startBytes: number;
  /** From X-Repo-Commit, when present. */
  commitSha: string | null;
  /** From X-Linked-Etag (LFS) or ETag, unquoted; for LFS files this is the sha256. */
  etag: string | null;
  /** From X-Linked-Size, when present. */
  linkedSizeBytes: number | null;
  /** Every URL requested, the first one last redirected from. */
  urls: string[];
}

const MAX_REDIRECTS = 5;
const COMMIT_SHA = /^[0-9a-f]{40}$/;

export class HubClient {
  constructor(
    private readonly endpoint: string,
    private readonly token: string | null,
    private readonly fetchImpl: FetchLike,
  ) {}

  async getRevision(repo: string, revision: string, signal?: AbortSignal): Promise<HubRevision> {
    const what = `listing ${repo}@${revision}`;
    const info = (await this.getJson(`${this.endpoint}/api/models/${repo}/revision/${encodeURIComponent(revision)}`, what, signal)) as { sha?: unknown };
    const commitSha = typeof info.sha === 'string' ? info.sha : '';
    if (!COMMIT_SHA.test(commitSha)) {
      throw new StudioError('network', `${what}: the hub answered without a commit sha (got ${JSON.stringify(info.sha)}); is ${this.endpoint} a Hugging Face hub?`, { endpoint: this.endpoint });
    }
    const files: HubFile[] = [];
    let url: string | null = `${this.endpoint}/api/models/${repo}/tree/${commitSha}?recursive=true`;
    while (url) {
      const res = await this.request(url, what, {}, signal);
      if (!res.ok) throw await hubErrorFromResponse(res, what, this.token !== null);
      const entries = (await res.json()) as TreeEntry[];
      for (const e of entries) {
        if (e.type !== 'file') continue;
        files.push({ path: e.path, sizeBytes: e.lfs?.size ?? e.size, lfsSha256: e.lfs?.oid ?? null, gitOid: e.oid ?? null });
      }
      url = nextLink(res.headers.get('link'), url);
    }
    return { repo, revision, commitSha, files };
  }

  /** Opens a file of a pinned commit; `startBytes > 0` asks for the rest of the file with a Range request. */
  async openFile(repo: string, commitSha: string, filePath: string, startBytes: number, signal?: AbortSignal): Promise<HubFileResponse> {
    const what = `downloading ${repo}/${filePath}`;
    const encodedPath = filePath.split('/').map(encodeURIComponent).join('/');
    let url = `${this.endpoint}/${repo}/resolve/${commitSha}/${encodedPath}`;
    const urls: string[] = [];
    const hubHeaders = { commitSha: null as string | null, etag: null as string | null, linkedSizeBytes: null as number | null };
    const extra: Record<string, string> = startBytes > 0 ? { range: `bytes=${startBytes}-` } : {};
    for (let i = 0; i <= MAX_REDIRECTS; i++) {
      urls.push(url);
      const res = await this.request(url, what, extra, signal);
      hubHeaders.commitSha ??= res.headers.get('x-repo-commit');
      hubHeaders.etag ??= unquoteEtag(res.headers.get('x-linked-etag') ?? res.headers.get('etag'));
      const linkedSize = res.headers.get('x-linked-size');
      if (linkedSize !== null && hubHeaders.linkedSizeBytes === null) hubHeaders.linkedSizeBytes = Number(linkedSize);
      if (res.status >= 300 && res.status < 400) {
        const location = res.headers.get('location');
        await res.body?.cancel();
        if (!location) throw new StudioError('network', `${what}: HTTP ${res.status} redirect without a Location header`, { url });
        url = new URL(location, url).toString();
        continue;
      }
      if (res.status === 416) {
        await res.body?.cancel();
        throw new StudioError('checksum-mismatch', `${what}: the partial file is longer than the file on the hub (HTTP 416 for bytes=${startBytes}-)`, { startBytes });
      }
      if (!res.ok || !res.body) throw await hubErrorFromResponse(res, what, this.token !== null);
      const length = res.headers.get('content-length');
      const honoured = res.status === 206 && (res.headers.get('content-range') ?? '').startsWith(`bytes ${startBytes}-`);
      if (res.status === 206 && !honoured) {
        await res.body.cancel();
        throw new StudioError('network', `${what}: the server answered Range bytes=${startBytes}- with Content-Range ${res.headers.get('content-range')}`, { startBytes });
      }
      return {
        status: res.status,
        body: res.body,
        contentLengthBytes: length === null ? null : Number(length),
        startBytes: honoured ? startBytes : 0,
        ...hubHeaders,
        urls,
      };
    }
    throw new StudioError('network', `${what}: more than ${MAX_REDIRECTS} redirects`, { url });
  }

  private async getJson(url: string, what: string, signal?: AbortSignal): Promise<unknown> {
    const res = await this.request(url, what, {}, signal);
    if (!res.ok) throw await hubErrorFromResponse(res, what, this.token !== null);
    return res.json();
  }

  private async request(url: string, what: string, extra: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { 'user-agent': 'qwen3-tts-studio', ...extra };
    // The token goes to the hub only, never to the CDN a redirect points at.
    if (this.token !== null && new URL(url).origin === new URL(this.endpoint).origin) headers.authorization = `Bearer ${this.token}`;
    try {
      return await this.fetchImpl(url, { headers, redirect: 'manual', signal });
    } catch (err) {
      throw transportError(err, what, signal);
    }
  }
}

interface TreeEntry {
  type: 'file' | 'directory';
  path: string;
  size: number;
  oid?: string;
  lfs?: { oid: string; size: number; pointerSize?: number };
}

function unquoteEtag(etag: string | null): string | null {
  if (etag === null) return null;
  return etag.replace(/^W\//, '').replace(/^"|"$/g, '');
}

/** The rel="next" target of an RFC 8288 Link header, resolved against the current URL. */
function nextLink(link: string | null, currentUrl: string): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (m) return new URL(m[1], currentUrl).toString();
  }
  return null;
}
