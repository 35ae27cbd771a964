/**
 * Reading a JSON request body safely: only `application/json` (anything else is 415, which also
 * stops cross-site "simple" form and text/plain posts), a byte cap enforced while reading (413),
 * then strict schema validation that names every unknown or bad field (400). A body the client
 * stops sending is its error (400 'client-aborted'), not the server's.
 */
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { StudioError } from '../../src-shared/errors';
import { describeIssues } from '../api/schemas';

/** The largest request body: 1 MiB of input text plus its JSON framing. */
export const MAX_BODY_BYTES = 1_100_000;

export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const type = header.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

export async function readJsonBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  if (!isJsonContentType(req.headers['content-type'])) {
    throw new StudioError('unsupported-media-type', `send the body as JSON with the header Content-Type: application/json (got ${JSON.stringify(String(req.headers['content-type'] ?? 'none')).slice(0, 80)})`, {
      field: 'content-type',
    });
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new StudioError('payload-too-large', `the request body is ${declared} bytes but the limit is ${maxBytes}; send shorter input or split it`, { limitBytes: maxBytes });
  }
  const chunks: Buffer[] = [];
  let numBytes = 0;
  try {
    for await (const chunk of req) {
      numBytes += (chunk as Buffer).length;
      if (numBytes > maxBytes) {
        throw new StudioError('payload-too-large', `the request body exceeds ${maxBytes} bytes; send shorter input or split it`, { limitBytes: maxBytes });
      }
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    if (err instanceof StudioError) throw err;
    // The client closed the connection (or the server's request timeout cut it) mid-body: its fault, not ours.
    const of = Number.isFinite(declared) ? ` of the ${declared} it declared` : '';
    throw new StudioError('invalid-argument', `the client stopped sending the request body after ${numBytes} bytes${of}; send the whole body`, { field: '(body)', reason: 'client-aborted', numBytes });
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new StudioError('invalid-argument', 'the request body is not valid JSON', { field: '(body)' });
  }
}

/** Validates a parsed body; unknown fields are named, never dropped. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  const fields = issues.flatMap((i) => {
    const base = i.path.join('.');
    if (i.code === 'unrecognized_keys') return i.keys.map((k) => (base ? `${base}.${k}` : k));
    return [base || '(body)'];
  });
  const unknown = issues.find((i) => i.code === 'unrecognized_keys');
  const message = unknown ? `unknown field ${fields.map((f) => `'${f}'`).join(', ')}; remove it or check its spelling` : `invalid request: ${describeIssues(issues)}`;
  throw new StudioError('invalid-argument', message, { field: fields[0], fields: fields.slice(0, 5) });
}
