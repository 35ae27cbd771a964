/**
 * The listeners of one two-argument event (VS Code's Emitter shape): `event(listener)` subscribes and
 * returns the unsubscribe, `fire(a, b)` calls every listener in subscription order; a throwing
 * listener throws to the caller. HostClient and EnginePool carry their host events and state changes in it.
 */
export class Listeners<A, B> {
  private readonly listeners = new Set<(a: A, b: B) => void>();

  readonly event = (listener: (a: A, b: B) => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  fire(a: A, b: B): void {
    for (const listener of this.listeners) listener(a, b);
  }
}
