/**
 * Test-only: what a call throws (thrown) or a promise rejects with (rejection), typed as the
 * StudioError the studio throws so a test can check its code, message and details. Either fails the
 * test when nothing is thrown. Used by the tests of src-main; imports nothing at run time.
 */
import type { StudioError } from '../errors';

export function thrown<E = StudioError>(fn: () => unknown): E {
  try {
    fn();
  } catch (err) {
    return err as E;
  }
  throw new Error('expected an error, but nothing was thrown');
}

export async function rejection<E = StudioError>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (err) {
    return err as E;
  }
  throw new Error('expected a rejection, but the promise resolved');
}
