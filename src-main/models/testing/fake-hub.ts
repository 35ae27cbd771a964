/**
 * A Hugging Face-compatible hub on 127.0.0.1 (node:http, port 0) for the model manager's tests:
 * the revision and tree APIs (paginated, LFS sha256), resolve URLs with the hub's headers
 * (X-Repo-Commit, ETag, X-Linked-Etag, X-Linked-Size), redirects of LFS files to a CDN on a second
 * port (another origin, as cdn-lfs.huggingface.co is),
 * Range requests, gated repos, 404s, and faults on demand (drop a connection after N bytes,
 * corrupt a byte). Every request is logged. Test-only; never used by the app.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gitBlobSha1 } from '../file-hash';

export interface FakeHubRepoSpec {
  files: Record<string, Uint8Array>;
  /** Default: sha1 of the repo name and file list. */
  commitSha?: string;
  /** Branch names that resolve to commitSha; default ['main']. */
  branches?: string[];
  /** When set, requests need `Authorization: Bearer <token>` (401 without one, 403 with another). */
  token?: string;
}

export interface FakeHubRequestRecord {
  method: string;
  url: string;
  range: string | null;
  authorization: string | null;
}

interface StoredFile {
  content: Uint8Array;
  sha256: string;
  gitOid: string;
  isLfs: boolean;
}

interface StoredRepo {
  commitSha: string;
  branches: string[];
  token: string | null;
  files: Map<string, StoredFile>;
}

interface Fault {
  kind: 'drop' | 'corrupt';
  numBytes: number;
  numTimesLeft: number;
}

/** Files at least this big, or ending in .safetensors, are served the LFS way. */
const LFS_THRESHOLD_BYTES = 64 * 1024;

export class FakeHub {
  readonly requests: FakeHubRequestRecord[] = [];
  /** Tree API page size; the hub paginates with a Link header. */
  treePageSize = 4;
  /** Bodies are written in pieces of this size. */
  bodyPieceBytes = 32 * 1024;
  private readonly repos = new Map<string, StoredRepo>();
  private readonly faults = new Map<string, Fault[]>();

  private constructor(
    private readonly server: http.Server,
    private readonly cdnServer: http.Server,
  ) {}

  /** `port`: the hub's port (default 0, any free one); the CDN always takes a free port. */
  static async start(port = 0): Promise<FakeHub> {
    const server = http.createServer();
    const cdnServer = http.createServer();
    const hub = new FakeHub(server, cdnServer);
    server.on('request', (req, res) => hub.handle(req, res));
    cdnServer.on('request', (req, res) => hub.handle(req, res));
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => cdnServer.listen(0, '127.0.0.1', resolve));
    return hub;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The LFS CDN's origin: same host, another port, so a different origin from the hub. */
  get cdnOrigin(): string {
    return `http://127.0.0.1:${(this.cdnServer.address() as AddressInfo).port}`;
  }

  addRepo(repo: string, spec: FakeHubRepoSpec): { commitSha: string; sha256: Record<string, string> } {
    const files = new Map<string, StoredFile>();
    const sha256: Record<string, string> = {};
    for (const [p, content] of Object.entries(spec.files)) {
      const file = { content, sha256: sha256Hex(content), gitOid: gitBlobSha1(content), isLfs: content.length >= LFS_THRESHOLD_BYTES || p.endsWith('.safetensors') };
      files.set(p, file);
      sha256[p] = file.sha256;
    }
    const commitSha = spec.commitSha ?? createHash('sha1').update(repo + [...files.keys()].join(',') + Object.values(sha256).join(',')).digest('hex');
    this.repos.set(repo, { commitSha, branches: spec.branches ?? ['main'], token: spec.token ?? null, files });
    return { commitSha, sha256 };
  }

  /** The next `numTimes` downloads of `filePath` send `numBytes` body bytes, then the socket is destroyed. */
  dropAfter(filePath: string, numBytes: number, numTimes = 1): void {
    this.addFault(filePath, { kind: 'drop', numBytes, numTimesLeft: numTimes });
  }

  /** The next `numTimes` downloads of `filePath` have the byte at offset `atByte` flipped. */
  corrupt(filePath: string, atByte: number, numTimes = 1): void {
    this.addFault(filePath, { kind: 'corrupt', numBytes: atByte, numTimesLeft: numTimes });
  }

  /** Requests whose URL contains `fragment`. */
  requestsFor(fragment: string): FakeHubRequestRecord[] {
    return this.requests.filter((r) => r.url.includes(fragment));
  }

  async dispose(): Promise<void> {
    for (const server of [this.server, this.cdnServer]) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  private addFault(filePath: string, fault: Fault): void {
    const list = this.faults.get(filePath) ?? [];
    list.push(fault);
    this.faults.set(filePath, list);
  }

  private takeFault(filePath: string): Fault | null {
    const list = this.faults.get(filePath);
    const fault = list?.[0];
    if (!fault) return null;
    if (--fault.numTimesLeft <= 0) list.shift();
    return fault;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', this.endpoint);
    this.requests.push({ method: req.method ?? 'GET', url: url.pathname + url.search, range: req.headers.range ?? null, authorization: req.headers.authorization ?? null });
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const isCdn = req.socket.localPort === (this.cdnServer.address() as AddressInfo).port;
    if (isCdn !== (parts[0] === 'lfs-cdn')) return hubError(res, 404, 'EntryNotFound', 'the CDN serves only /lfs-cdn/ and the hub never does');
    if (parts[0] === 'api' && parts[1] === 'models') return this.handleApi(req, res, parts.slice(2), url);
    if (parts[0] === 'lfs-cdn') return this.handleCdn(req, res, url);
    if (parts[2] === 'resolve') return this.handleResolve(req, res, `${parts[0]}/${parts[1]}`, parts[3], parts.slice(4).join('/'));
    return hubError(res, 404, 'EntryNotFound', 'unknown route');
  }

  private handleApi(req: http.IncomingMessage, res: http.ServerResponse, parts: string[], url: URL): void {
    const repoName = `${parts[0]}/${parts[1]}`;
    const repo = this.authorizedRepo(req, res, repoName);
    if (!repo) return;
    const kind = parts[2];
    const rev = parts[3];
    if (!this.revisionMatches(repo, rev)) return hubError(res, 404, 'RevisionNotFound', `Invalid rev id: ${rev}`);
    if (kind === 'revision') {
      return json(res, { id: repoName, sha: repo.commitSha, private: repo.token !== null, siblings: [...repo.files.keys()].map((rfilename) => ({ rfilename })) });
    }
    if (kind === 'tree') {
      const entries = treeEntries(repo);
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const page = entries.slice(start, start + this.treePageSize);
      if (start + this.treePageSize < entries.length) {
        const next = new URL(url.toString());
        next.searchParams.set('cursor', String(start + this.treePageSize));
        res.setHeader('link', `<${next.toString()}>; rel="next"`);
      }
      return json(res, page);
    }
    return hubError(res, 404, 'EntryNotFound', `unknown api ${kind}`);
  }

  private handleResolve(req: http.IncomingMessage, res: http.ServerResponse, repoName: string, rev: string, filePath: string): void {
    const repo = this.authorizedRepo(req, res, repoName);
    if (!repo) return;
    if (!this.revisionMatches(repo, rev)) return hubError(res, 404, 'RevisionNotFound', `Invalid rev id: ${rev}`);
    const file = repo.files.get(filePath);
    if (!file) return hubError(res, 404, 'EntryNotFound', `${filePath} does not exist on "${rev}"`);
    res.setHeader('x-repo-commit', repo.commitSha);
    if (file.isLfs) {
      res.setHeader('x-linked-etag', `"${file.sha256}"`);
      res.setHeader('x-linked-size', String(file.content.length));
      res.setHeader('etag', `"${file.sha256}"`);
      res.setHeader('location', `${this.cdnOrigin}/lfs-cdn/${file.sha256}?repo=${encodeURIComponent(repoName)}&path=${encodeURIComponent(filePath)}`);
      res.statusCode = 302;
      return void res.end();
    }
    res.setHeader('etag', `"${file.gitOid}"`);
    this.sendBytes(req, res, filePath, file.content);
  }

  private handleCdn(req: http.IncomingMessage, res: http.ServerResponse, url: URL): void {
    const repo = this.repos.get(url.searchParams.get('repo') ?? '');
    const filePath = url.searchParams.get('path') ?? '';
    const file = repo?.files.get(filePath);
    if (!file) return hubError(res, 404, 'EntryNotFound', 'no such object');
    res.setHeader('etag', `"${file.sha256}"`);
    this.sendBytes(req, res, filePath, file.content);
  }

  /** Serves bytes with Range support and any pending fault for this file. */
  private sendBytes(req: http.IncomingMessage, res: http.ServerResponse, filePath: string, content: Uint8Array): void {
    let body = Buffer.from(content);
    const fault = this.takeFault(filePath);
    if (fault?.kind === 'corrupt' && fault.numBytes < body.length) {
      body = Buffer.from(body);
      body[fault.numBytes] ^= 0xff;
    }
    let start = 0;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    res.setHeader('accept-ranges', 'bytes');
    if (range) {
      start = Number(range[1]);
      if (start >= body.length) {
        res.statusCode = 416;
        res.setHeader('content-range', `bytes */${body.length}`);
        return void res.end();
      }
      res.statusCode = 206;
      res.setHeader('content-range', `bytes ${start}-${body.length - 1}/${body.length}`);
    }
    const slice = body.subarray(start);
    res.setHeader('content-length', String(slice.length));
    res.setHeader('content-type', 'application/octet-stream');
    if (fault?.kind === 'drop') {
      res.flushHeaders();
      res.write(slice.subarray(0, Math.min(fault.numBytes, slice.length)), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    this.writeInPieces(res, slice, 0);
  }

  /** Sends the body in `bodyPieceBytes` pieces, one per event-loop turn, so clients see several chunks. */
  private writeInPieces(res: http.ServerResponse, body: Buffer, offset: number): void {
    if (res.destroyed) return;
    const end = Math.min(body.length, offset + this.bodyPieceBytes);
    if (end >= body.length) return void res.end(body.subarray(offset));
    res.write(body.subarray(offset, end), () => setImmediate(() => this.writeInPieces(res, body, end)));
  }

  private authorizedRepo(req: http.IncomingMessage, res: http.ServerResponse, repoName: string): StoredRepo | null {
    const repo = this.repos.get(repoName);
    if (!repo) {
      hubError(res, 404, 'RepoNotFound', 'Repository not found');
      return null;
    }
    if (repo.token !== null) {
      const auth = req.headers.authorization ?? '';
      if (auth === '') {
        hubError(res, 401, 'GatedRepo', 'Access to this model is restricted. You must be authenticated.');
        return null;
      }
      if (auth !== `Bearer ${repo.token}`) {
        hubError(res, 403, 'GatedRepo', 'Access to this model is restricted and you are not in the authorized list.');
        return null;
      }
    }
    return repo;
  }

  private revisionMatches(repo: StoredRepo, rev: string): boolean {
    return rev === repo.commitSha || repo.branches.includes(rev);
  }
}

function treeEntries(repo: StoredRepo): unknown[] {
  const dirs = new Set<string>();
  const files: unknown[] = [];
  for (const [p, f] of [...repo.files.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const segments = p.split('/');
    for (let i = 1; i < segments.length; i++) dirs.add(segments.slice(0, i).join('/'));
    files.push({
      type: 'file',
      oid: f.isLfs ? createHash('sha1').update(`lfs-pointer-${f.sha256}`).digest('hex') : f.gitOid,
      size: f.content.length,
      path: p,
      ...(f.isLfs ? { lfs: { oid: f.sha256, size: f.content.length, pointerSize: 134 } } : {}),
    });
  }
  return [...[...dirs].sort().map((p) => ({ type: 'directory', oid: '0'.repeat(40), size: 0, path: p })), ...files];
}

function hubError(res: http.ServerResponse, status: number, errorCode: string, message: string): void {
  res.statusCode = status;
  res.setHeader('x-error-code', errorCode);
  res.setHeader('x-error-message', message);
  json(res, { error: message });
}

function json(res: http.ServerResponse, value: unknown): void {
  const body = JSON.stringify(value);
  res.setHeader('content-type', 'application/json');
  res.setHeader('content-length', String(Buffer.byteLength(body)));
  res.end(body);
}

function sha256Hex(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
