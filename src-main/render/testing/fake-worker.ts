/**
 * A render worker in its own process on a fake engine host (a tone per part), for tests that need
 * to see a worker hang, spin or exit: `tsx fake-worker.ts <redis url> <model>`. Prints 'worker ready'
 * once it listens and one line per failed try; SIGTERM closes it as `studio worker` does. Tests only.
 */
import { startRenderWorker } from '../render-worker';
import { asHost, fakeRenderHost } from './fake-render-host';

const [url, model] = process.argv.slice(2);
const worker = startRenderWorker({
  url,
  model,
  host: asHost(fakeRenderHost()),
  concurrency: 2,
  onFailure: (f) => console.log(`failed ${f.jobId}: ${f.reason}`),
});
process.on('SIGTERM', () => {
  void worker.close().then(() => process.exit(0));
});
void worker.waitUntilReady().then(() => console.log('worker ready'));
