/**
 * `studio synth`: text or an SSML file in, an audio file out (its format from -o's extension:
 * output-format.ts), through the same synthesis service the engine host runs (in this process: a CLI
 * may block its own thread). Progress on a TTY; --stream
 * writes raw 16-bit PCM to stdout as it is decoded; --list-voices prints the model's speakers;
 * --loudness-target / --true-peak set the recording's normalisation.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { EVENTS } from '../../src-shared/ipc-contract';
import { DEFAULT_SEED, MAX_SEED } from '../../src-shared/sampling-limits';
import type { AudioFormat } from '../../src-shared/audio-format';
import { SSML_DIALECTS, type AudioChunk, type SsmlDialect, type SynthesisProgress, type SynthesisRequest, type SynthesisResult, type VoiceInfo } from '../../src-shared/synthesis';
import { createSynthesisService } from '../engine-host/synthesis-service';
import { EMBEDDED_TINY } from '../engine-protocol/protocol';
import { encodeWav } from '../audio/wav-encode';
import { encodeAudio } from '../audio/encode-audio';
import { outputFormatForPath } from './output-format';
import { encodePcm16Le } from '../audio/pcm16';
import { defaultUserDataDir } from '../platform/paths';
import { UsageError, parseIntFlag } from './cli-errors';
import { addSamplingFlags, samplingParamsFromFlags, type SamplingFlags } from './sampling-flags';
import { addLoudnessFlags, loudnessFromFlags, type LoudnessFlags } from './loudness-flags';
import { savedVoiceConditioning } from './voice-command';
import { selectSavedVoices } from '../services/voice-library-service';
import { listProviderChoices } from '../../src-shared/provider-names';

interface SynthOptions extends SamplingFlags, LoudnessFlags {
  voice: string;
  language: string;
  seed: string;
  output?: string;
  ssml?: string;
  model?: string;
  provider: string;
  stream?: boolean;
  float?: boolean;
  instruct?: string;
  listVoices?: boolean;
  ssmlDialect: string;
  lenient?: boolean;
}

async function runSynth(text: string | undefined, opts: SynthOptions): Promise<void> {
  if (!(SSML_DIALECTS as readonly string[]).includes(opts.ssmlDialect)) throw new UsageError(`--ssml-dialect '${opts.ssmlDialect}' is unknown`, `use one of ${SSML_DIALECTS.join(', ')}`);
  const params = samplingParamsFromFlags(opts); // bad flags fail before the model loads
  const loudness = loudnessFromFlags(opts);
  const outputFormat = opts.output ? outputFormatForPath(opts.output, opts.float === true) : null; // before the model loads
  const lines: string[] = [];
  const progress = { framesDone: 0, framesEstimated: 0 };
  const onEvent = (event: string, payload: unknown) => {
    if (event === EVENTS.onDidProduceAudio && opts.stream) process.stdout.write(encodePcm16Le((payload as AudioChunk).pcm));
    if (event === EVENTS.onDidProgress && process.stderr.isTTY) {
      const p = payload as SynthesisProgress;
      progress.framesDone = p.numFramesDone;
      progress.framesEstimated = Math.max(p.numFramesEstimated, p.numFramesDone);
      process.stderr.write(`\rsynthesising: ${progress.framesDone}/${progress.framesEstimated} frames\x1b[K`);
    }
  };
  const service = await createSynthesisService(
    { model: opts.model ?? process.env.STUDIO_MODEL ?? EMBEDDED_TINY, cacheDir: path.join(defaultUserDataDir(), 'cache'), engineConfig: { provider: opts.provider } },
    onEvent,
    (m) => lines.push(m),
  );
  try {
    if (opts.listVoices) {
      const voices = (await service.call('listVoices', {})) as VoiceInfo[];
      for (const v of voices) console.log(`${v.name.padEnd(10)} ${v.nativeLanguage.padEnd(9)} ${v.dialect ? `(${v.dialect}) ` : ''}${v.description}`);
      for (const v of await savedVoiceConditioning()) console.log(`${v.name.padEnd(10)} saved ${v.kind === 'clone' ? 'cloned voice (Base models)' : 'designed voice (VoiceDesign models)'}`);
      return;
    }
    const input = opts.ssml ? fs.readFileSync(opts.ssml, 'utf8') : text;
    if (input === undefined) throw new UsageError('no text given', 'pass the text as an argument, e.g. studio synth "Hello." -o hello.wav, or --ssml file.xml');
    if (!opts.output && !opts.stream) throw new UsageError('no output given', 'pass -o out.wav, or --stream to write raw PCM to stdout');
    const saved = selectSavedVoices(await savedVoiceConditioning(), { input, inputFormat: opts.ssml ? 'ssml' : 'text', voice: opts.voice });
    const request: SynthesisRequest = {
      requestId: 'cli',
      input,
      inputFormat: opts.ssml ? 'ssml' : 'text',
      voice: opts.voice.toLowerCase(), // saved voices match by name case-insensitively, and ids are lower-case
      ...(saved.length > 0 ? { savedVoices: saved } : {}),
      language: opts.language.toLowerCase(),
      seed: parseIntFlag('seed', opts.seed, 0, MAX_SEED),
      instruct: opts.instruct,
      params,
      ...(loudness ? { loudness } : {}),
      stream: opts.stream === true,
      ...(opts.ssml ? { ssmlOptions: { dialect: opts.ssmlDialect as SsmlDialect, lenient: opts.lenient === true } } : {}),
    };
    const result = (await service.call('synthesize', request)) as SynthesisResult;
    if (process.stderr.isTTY) process.stderr.write('\n');
    if (opts.output && outputFormat) fs.writeFileSync(opts.output, await encodeOutput(result, outputFormat, opts.float === true));
    const t = result.timings;
    const where = opts.output ? `wrote ${opts.output}` : 'streamed';
    process.stderr.write(
      `${where}: ${(t.audioDurationMs / 1000).toFixed(2)} s of audio, ${t.numFrames} frames, first audio ${t.latencyFirstAudioMs.toFixed(0)} ms, total ${t.latencyTotalMs.toFixed(0)} ms, RTF ${t.rtf.toFixed(3)}${result.truncated ? ' (truncated at the frame cap)' : ''}\n`,
    );
    for (const w of result.warnings) process.stderr.write(`warning: ${w}\n`);
  } finally {
    await service.dispose();
  }
}

/** The file's bytes: WAV through the one WAV writer (float when asked), every other format through encode-audio.ts. */
async function encodeOutput(result: SynthesisResult, format: AudioFormat, float: boolean): Promise<Uint8Array> {
  if (format === 'wav') return encodeWav(result.pcm, result.sampleRateHz, float ? 'float32' : 'pcm16');
  return (await encodeAudio({ pcm: result.pcm, sampleRateHz: result.sampleRateHz, format })).bytes;
}

export function registerSynth(program: Command): void {
  const command = program
    .command('synth [text]')
    .description('synthesise text (or an SSML file) to an audio file (.wav, .mp3, .opus, .aac, .flac or .pcm)')
    .option('--voice <name>', "speaker, or a saved voice's name or id (see --list-voices, studio voice list)", 'ryan')
    .option('--language <lang>', "language, or 'auto'", 'auto')
    .option('--seed <n>', 'sampling seed: the same seed gives the same bytes', String(DEFAULT_SEED))
    .option('-o, --output <file>', 'output file; its extension picks the format: .wav, .mp3, .opus, .aac, .flac, .pcm')
    .option('--ssml <file>', 'read SSML from a file instead of text')
    .option('--ssml-dialect <name>', `how to read the SSML: ${SSML_DIALECTS.join(', ')} (auto detects Azure, Google and Polly markup)`, 'auto')
    .option('--lenient', 'drop unknown SSML markup and clamp out-of-range values with warnings instead of failing')
    .option('--model <dir>', "model folder, or 'embedded:tiny' (the synthetic default)")
    .option('--provider <name>', listProviderChoices(' or '), 'auto')
    .option('--instruct <text>', 'instruction (1.7B CustomVoice / VoiceDesign only)')
    .option('--float', 'write 32-bit float WAV instead of 16-bit PCM')
    .option('--stream', 'write raw 16-bit PCM to stdout as it is decoded')
    .option('--list-voices', "list the model's voices and exit");
  addLoudnessFlags(addSamplingFlags(command)).action(runSynth);
}
