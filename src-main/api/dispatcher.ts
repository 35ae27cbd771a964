/**
 * Transport-neutral call dispatch: checks the channel against the contract, validates the payload
 * with its schema, runs the service handler and always answers with a CallReply — never a throw.
 * Electron IPC (ipc/), the headless WebSocket bridge and in-memory tests all call dispatch().
 * Refusals are logged at a bounded rate, so a flood of bad calls cannot flood the log.
 */
import { ADMIN_CHANNELS, CHANNELS, isChannel, type CallReply, type Channel, type RequestOf, type ResponseOf } from '../../src-shared/ipc-contract';
import { StudioError, toStudioError } from '../../src-shared/errors';
import type { SavedVoiceConditioning } from '../../src-shared/contract/voices';
import { REQUEST_SCHEMAS, describeIssues } from './schemas';
import { createRateLimitedLog, type RateLimitedLogOptions } from './rate-limited-log';

/** Who is calling; events for this caller go through `emit`. */
export interface CallContext {
  /** The connection (window, socket, HTTP request): what it starts is its own and ends with it. */
  callerId: string;
  /**
   * The client behind it, over all its connections: quotas of shared pools count by it ('local' for
   * this machine's session, the peer address for a remote one). Absent: the connection is its own client.
   */
  clientId?: string;
  /** 'admin': the local privileged session (every channel); 'client': the public contract only. */
  role: 'admin' | 'client';
  /**
   * The voice library as the transport already read it for this call (the HTTP API reads it once per
   * request to resolve the voice); the services pick the saved voices to attach from it. Absent: they read it.
   */
  savedVoices?: readonly SavedVoiceConditioning[];
  emit(event: string, payload: unknown): void;
  /** Told when a call breaks the contract (unknown channel, invalid payload), before the reply; a transport may close on repeats. */
  onDidBreakContract?(error: StudioError): void;
}

export type Handlers = { [C in Channel]: (request: RequestOf<C>, ctx: CallContext) => Promise<ResponseOf<C>> };

export interface DispatchLog {
  warn(message: string): void;
}

export class Dispatcher {
  private readonly warn: (m: string) => void;

  constructor(
    private readonly handlers: Handlers,
    log: DispatchLog = { warn: (m) => console.warn(m) },
    logLimits: RateLimitedLogOptions = {},
  ) {
    this.warn = createRateLimitedLog((m) => log.warn(m), logLimits);
  }

  async dispatch(channel: unknown, payload: unknown, ctx: CallContext): Promise<CallReply<unknown>> {
    if (!isChannel(channel)) {
      const error = new StudioError(
        'unknown-channel',
        `unknown channel ${JSON.stringify(String(channel)).slice(0, 80)}; valid channels are ${Object.values(CHANNELS).join(', ')}`,
        { channel: String(channel).slice(0, 80) },
      );
      this.warn(`[dispatch] rejected call from ${ctx.callerId}: unknown channel ${JSON.stringify(String(channel).slice(0, 80))}`);
      ctx.onDidBreakContract?.(error);
      return { ok: false, error: error.toJSON() };
    }
    if (ctx.role !== 'admin' && ADMIN_CHANNELS.includes(channel)) {
      const error = new StudioError('forbidden', `${channel} is for the studio's own window on this machine only (it changes, deletes or reveals what every client shares); a remote or API client may not call it`, { channel });
      this.warn(`[dispatch] refused admin call from ${ctx.callerId}: ${channel}`);
      return { ok: false, error: error.toJSON() };
    }
    const parsed = REQUEST_SCHEMAS[channel].safeParse(payload ?? {});
    if (!parsed.success) {
      const error = new StudioError('invalid-argument', `invalid payload for ${channel}: ${describeIssues(parsed.error.issues)}`, {
        channel,
        fields: parsed.error.issues.slice(0, 5).map((i) => i.path.join('.') || '(payload)'),
      });
      this.warn(`[dispatch] rejected call from ${ctx.callerId}: ${error.message.slice(0, 300)}`);
      ctx.onDidBreakContract?.(error);
      return { ok: false, error: error.toJSON() };
    }
    try {
      const handler = this.handlers[channel] as (req: unknown, ctx: CallContext) => Promise<unknown>;
      return { ok: true, value: await handler(parsed.data, ctx) };
    } catch (err) {
      return { ok: false, error: toStudioError(err).toJSON() };
    }
  }
}
