/**
 * The one event emitter of the studio (VS Code's Emitter shape): `event(listener)` subscribes and
 * returns the unsubscribe, `fire(...args)` calls every listener in subscription order. A throwing
 * listener is logged and does not stop the others or the code that fired (the engine loop, a host's
 * message handler). Pure TypeScript: the engine, the engine client and the renderer may all use it.
 */
type Listener<Args extends unknown[]> = (...args: Args) => void;

export class Emitter<Args extends unknown[]> {
  private readonly listeners = new Set<Listener<Args>>();

  readonly event = (listener: Listener<Args>): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  fire(...args: Args): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(...args);
      } catch (err) {
        console.error('event listener threw:', err);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
