/**
 * How a long-running command (studio serve, studio worker) stops: the first SIGINT or SIGTERM says
 * what it is finishing, runs `finish` and exits 0; a second one exits at once with 130. Only the
 * CLI's composition roots call it (library code never exits the process).
 */
export function stopOnSignals(describe: (signal: string) => string, finish: () => Promise<void>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      console.log(`${signal} again: exiting now`);
      process.exit(130);
    }
    stopping = true;
    console.log(`${describe(signal)}; press Ctrl+C again to exit at once`);
    await finish();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
