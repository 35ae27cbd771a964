/**
 * The uploads pool of the WebSocket bridge: bytes of calls a client has sent whose replies have not
 * gone out yet (a saveClip's PCM, an export chunk, a synthesize request), counted per client over all
 * its sockets, so one remote client cannot hold the host's memory with many sockets or many calls.
 * Pure bookkeeping; the bridge takes a share before dispatching a call and gives it back after the reply.
 */

export class UploadShares {
  private readonly heldBytes = new Map<string, number>();

  constructor(readonly maxBytesPerClient: number) {}

  /** Takes `numBytes` for `clientId`, or returns false (nothing taken) past its share. One call always fits an idle client. */
  tryTake(clientId: string, numBytes: number): boolean {
    const held = this.heldBytes.get(clientId) ?? 0;
    if (held > 0 && held + numBytes > this.maxBytesPerClient) return false;
    this.heldBytes.set(clientId, held + numBytes);
    return true;
  }

  release(clientId: string, numBytes: number): void {
    const left = (this.heldBytes.get(clientId) ?? 0) - numBytes;
    if (left > 0) this.heldBytes.set(clientId, left);
    else this.heldBytes.delete(clientId);
  }

  held(clientId: string): number {
    return this.heldBytes.get(clientId) ?? 0;
  }
}
