/**
 * `studio` command line: serve, synth, bench, model, render and worker subcommands over the same services as the
 * app. Parses arguments (commander), runs one command, and maps every failure to the one error
 * style and exit code (0 ok, 1 runtime error, 2 usage error). Never prints a stack without --verbose.
 */
import { Command, CommanderError } from 'commander';
import { EXIT_OK, EXIT_USAGE_ERROR, reportError } from './cli-errors';
import { registerServe } from './serve-command';
import { registerStart } from './start-command';
import { registerSynth } from './synth-command';
import { registerModel } from './model-command';
import { registerBench } from './bench-command';
import { registerRender } from './render-command';
import { registerVoice } from './voice-command';
import { STUDIO_VERSION } from '../../src-shared/version';

export function createProgram(): Command {
  const program = new Command('studio')
    .description('Qwen3-TTS Studio: local text-to-speech, SSML timelines and concurrency benchmarks')
    .version(STUDIO_VERSION)
    .option('--verbose', 'print details and stack traces on errors')
    .exitOverride()
    .showHelpAfterError('(run studio <command> --help for usage)')
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  registerStart(program);
  registerServe(program);
  registerSynth(program);
  registerBench(program);
  registerModel(program);
  registerRender(program);
  registerVoice(program);
  for (const c of program.commands) c.exitOverride();
  return program;
}

export async function runCli(argv: string[]): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT_OK;
      return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE_ERROR;
    }
    return reportError(err, program.opts().verbose === true || argv.includes('--verbose'));
  }
}

const isEntry = process.argv[1] !== undefined && /cli\.(js|ts)$/.test(process.argv[1]);
if (isEntry) {
  // serve never resolves (it exits after draining); every other command exits here, so open
  // onnxruntime handles cannot keep a finished command alive.
  void runCli(process.argv.slice(2)).then((code) => process.exit(code));
}
