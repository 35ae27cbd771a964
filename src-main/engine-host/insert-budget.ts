/**
 * Admission for <audio> inserts across every request of the engine host: a global budget of decoded
 * samples in flight, shared fairly between clients. A request waits (FIFO within its client, the
 * client holding least goes first) until its samples fit, or is refused 'busy' with retryAfterS when
 * it waited maxWaitMs or its client already has too many waiting. Pure bookkeeping: no audio here.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import { StudioError } from '../../src-shared/errors';
import { formatCount } from '../../src-shared/format-count';

export interface InsertBudgetLimits {
  /** Decoded samples (at the output rate) all admitted requests may hold together. */
  maxSamplesInFlight: number;
  /** Longest a request waits for room before it is refused 'busy'. */
  maxWaitMs: number;
  /** Requests one client may have waiting; one more is refused 'busy' at once. */
  maxWaitingPerClient: number;
  /** Requests all clients may have waiting together. */
  maxWaiting: number;
  /** The retry hint of a 'busy' refusal (HTTP Retry-After). */
  retryAfterS: number;
}

interface Waiter {
  clientId: string;
  numSamples: number;
  seq: number;
  grant(): void;
}

/** Gives `numSamples` back; calling it more than once gives them back once. */
export type ReleaseInsertSamples = () => void;

export class InsertBudget {
  private numSamplesHeld = 0;
  private readonly heldByClient = new Map<string, number>();
  private readonly waiting: Waiter[] = [];
  private nextSeq = 0;

  constructor(private readonly limits: Readonly<InsertBudgetLimits>) {}

  /** Samples held by admitted requests now, in all and per client (for status and tests). */
  usage(): { numSamplesHeld: number; numWaiting: number; heldByClient: ReadonlyMap<string, number> } {
    return { numSamplesHeld: this.numSamplesHeld, numWaiting: this.waiting.length, heldByClient: this.heldByClient };
  }

  /**
   * Resolves when `numSamples` are admitted for `clientId`, with the function that gives them back.
   * Rejects 'busy' (retryAfterS) on a full waiting line or after maxWaitMs, 'cancelled' when `signal` aborts.
   */
  acquire(clientId: string, numSamples: number, signal?: AbortSignal): Promise<ReleaseInsertSamples> {
    const { maxSamplesInFlight, maxWaitMs, maxWaitingPerClient, maxWaiting } = this.limits;
    if (numSamples > maxSamplesInFlight) {
      return Promise.reject(new StudioError('input-too-long', `the <audio> inserts of this request decode to ${formatCount(numSamples)} samples but the engine host holds at most ${formatCount(maxSamplesInFlight)} for all requests together; cut the clips or split the document`, { field: 'input', numDecodedSamples: numSamples, maxSamplesInFlight }));
    }
    if (numSamples <= 0) return Promise.resolve(() => {});
    return new Promise<ReleaseInsertSamples>((resolve, reject) => {
      const wait: { timer?: ReturnType<typeof setTimeout> } = {}; // set once it waits; grant() may run before
      const onAbort = (): void => leave(new StudioError('cancelled', 'the request was cancelled while its <audio> inserts waited for room', {}));
      const waiter: Waiter = {
        clientId,
        numSamples,
        seq: this.nextSeq++,
        grant: () => {
          clearTimeout(wait.timer);
          signal?.removeEventListener('abort', onAbort);
          this.hold(clientId, numSamples);
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.hold(clientId, -numSamples);
            this.pump();
          });
        },
      };
      const leave = (error: StudioError): void => {
        const at = this.waiting.indexOf(waiter);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        clearTimeout(wait.timer);
        signal?.removeEventListener('abort', onAbort);
        reject(error);
        this.pump(); // a head-of-line waiter that left may unblock smaller ones behind it
      };
      if (signal?.aborted) return reject(new StudioError('cancelled', 'the request was cancelled before its <audio> inserts were admitted', {}));
      this.waiting.push(waiter);
      this.pump();
      if (!this.waiting.includes(waiter)) return; // admitted at once
      const numWaitingOwn = this.waiting.filter((w) => w.clientId === clientId).length;
      if (numWaitingOwn > maxWaitingPerClient || this.waiting.length > maxWaiting) {
        const line = numWaitingOwn > maxWaitingPerClient ? `this client already has ${numWaitingOwn - 1} requests waiting (limit ${maxWaitingPerClient})` : `${this.waiting.length - 1} requests are waiting (limit ${maxWaiting})`;
        return leave(this.busy(numSamples, line));
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      wait.timer = setTimeout(() => leave(this.busy(numSamples, `it waited ${formatCount(maxWaitMs)} ms for room`)), maxWaitMs);
    });
  }

  private busy(numSamples: number, why: string): StudioError {
    const { maxSamplesInFlight, retryAfterS } = this.limits;
    return new StudioError('busy', `the <audio> inserts of requests in flight hold ${formatCount(this.numSamplesHeld)} of the ${formatCount(maxSamplesInFlight)} decoded samples the engine host allows, this request needs ${formatCount(numSamples)} and ${why}; retry after ${retryAfterS} s`, {
      retryAfterS,
      numDecodedSamples: numSamples,
      numSamplesHeld: this.numSamplesHeld,
      maxSamplesInFlight,
    });
  }

  private hold(clientId: string, numSamples: number): void {
    this.numSamplesHeld += numSamples;
    const held = (this.heldByClient.get(clientId) ?? 0) + numSamples;
    if (held > 0) this.heldByClient.set(clientId, held);
    else this.heldByClient.delete(clientId);
  }

  /**
   * Admits waiters while they fit. Order: the client holding least first, then arrival. A client
   * over its fair share (the budget over the clients holding or waiting) is passed over unless it
   * holds nothing; the first one that does not fit the free samples stops the round, so a large
   * request is not starved by small ones behind it.
   */
  private pump(): void {
    for (;;) {
      const clients = new Set([...this.heldByClient.keys(), ...this.waiting.map((w) => w.clientId)]);
      const shareSamples = this.limits.maxSamplesInFlight / Math.max(1, clients.size);
      const heldBy = (id: string) => this.heldByClient.get(id) ?? 0;
      const order = [...this.waiting].sort((a, b) => heldBy(a.clientId) - heldBy(b.clientId) || a.seq - b.seq);
      const next = order.find((w) => heldBy(w.clientId) === 0 || heldBy(w.clientId) + w.numSamples <= shareSamples);
      if (!next || next.numSamples > this.limits.maxSamplesInFlight - this.numSamplesHeld) return;
      this.waiting.splice(this.waiting.indexOf(next), 1);
      next.grant();
    }
  }
}
