/**
 * The renderer tests' isolation, registered in one call inside a describe (or at file level): a
 * fresh store before each test, and after it the rendered tree unmounted and the bridge cleared,
 * so no state, DOM or scripted answers leak from one test to the next. Test-only.
 */
import { afterEach, beforeEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { setBridge } from '../ipc/client';
import { resetStore } from '../store/store';

/**
 * findBy / waitFor give up after this long. Testing Library's 1 s default was too short beside the other
 * jsdom files on a loaded 2-core CI machine (LibraryPanel's first findByRole timed out there).
 */
const ASYNC_UTIL_TIMEOUT_MS = 5_000;

export function resetBetweenTests(): void {
  configure({ asyncUtilTimeout: ASYNC_UTIL_TIMEOUT_MS });
  beforeEach(() => resetStore());
  afterEach(() => {
    cleanup();
    setBridge(null);
  });
}
