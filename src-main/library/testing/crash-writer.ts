/**
 * Child process for the crash-safety test: opens the library in argv[2] with backend argv[3],
 * writes one clip, and is killed with SIGKILL either after the commit ('after-commit') or inside
 * the transaction before it commits ('mid-transaction'). It never closes the database.
 */
import { ClipStore } from '../clip-store';
import { openLibraryDb } from '../library-db';
import { loaderFor, type TestBackendName } from './sqlite-test-backends';

const [folder, backend, mode, id] = process.argv.slice(2) as [string, TestBackendName, 'after-commit' | 'mid-transaction', string];
const library = openLibraryDb(folder, undefined, { loaders: [loaderFor(backend)] });
const store = new ClipStore(library.db);
const clip = {
  id, createdAtMs: 1, title: 't', input: 'i', inputFormat: 'text' as const, voice: 'ryan', language: 'english', seed: 1, instruct: null,
  params: {} as never, modelHash: 'h', timings: {} as never, sampleRateHz: 24_000, numSamples: 1, durationMs: 1, turnSpans: [],
};
library.db.transaction(() => {
  store.insert(clip);
  if (mode === 'mid-transaction') process.kill(process.pid, 'SIGKILL');
});
process.kill(process.pid, 'SIGKILL');
