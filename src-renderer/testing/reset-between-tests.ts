/**
 * The renderer tests' isolation, registered in one call inside a describe (or at file level): a
 * fresh store before each test, and after it the rendered tree unmounted and the bridge cleared,
 * so no state, DOM or scripted answers leak from one test to the next. Test-only.
 */
import { afterEach, beforeEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { setBridge } from '../ipc/client';
import { resetStore } from '../store/store';

export function resetBetweenTests(): void {
  beforeEach(() => resetStore());
  afterEach(() => {
    cleanup();
    setBridge(null);
  });
}
