/**
 * A task run once after a quiet spell (a trailing debounce): each schedule() restarts the wait,
 * flush() runs a waiting task now, cancel() drops it. The session store and the project autosave
 * both write this way. Its functions need no `this`, so they can be passed as event listeners.
 */

export interface DebouncedTask {
  /** (Re)starts the wait: the task runs `delayMs` after the last call. */
  schedule(): void;
  /** Runs the task now if it is waiting; does nothing otherwise. */
  flush(): void;
  /** Drops a waiting task without running it. */
  cancel(): void;
}

export function createDebouncedTask(run: () => void, delayMs: number): DebouncedTask {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    timer = null;
    run();
  };
  return {
    schedule: () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(fire, delayMs);
    },
    flush: () => {
      if (!timer) return;
      clearTimeout(timer);
      fire();
    },
    cancel: () => {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
