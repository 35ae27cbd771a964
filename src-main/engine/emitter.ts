/**
 * A minimal typed event (VS Code's Emitter shape): `event(listener)` subscribes and returns a
 * disposer, `fire(value)` calls listeners in subscription order. A throwing listener does not stop
 * the others or the engine loop.
 */
export type Listener<T> = (value: T) => void;

export class Emitter<T> {
  private readonly listeners = new Set<Listener<T>>();

  readonly event = (listener: Listener<T>): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (err) {
        console.error('engine event listener threw:', err);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
