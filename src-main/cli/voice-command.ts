/**
 * `studio voice list|clone|design|rename|delete|samples|add-sample|use-sample`: the voice library in the
 * data folder (the same one the studio and `studio serve` use). Cloning runs the Base model's speaker
 * encoder in this process; designing saves a VoiceDesign description; a cloned voice keeps several
 * reference samples and speaks with one. `studio synth --voice <name>` then speaks a saved voice.
 */
import path from 'node:path';
import type { Command } from 'commander';
import type { SavedVoice, SavedVoiceConditioning, SavedVoiceSample } from '../../src-shared/contract/voices';
import type { ModelInfo } from '../../src-shared/synthesis';
import { defaultUserDataDir } from '../platform/paths';
import { createSynthesisService, type SynthesisService } from '../engine-host/synthesis-service';
import { EMBEDDED_TINY, type HostMethods } from '../engine-protocol/protocol';
import { LibraryService } from '../services/library-service';
import { VoiceLibraryService, defaultReservedVoiceNames } from '../services/voice-library-service';
import { UsageError } from './cli-errors';
import { MAX_REFERENCE_BYTES } from '../audio/reference-audio';
import { readClipFile } from './read-clip-file';
import { listProviderChoices } from '../../src-shared/provider-names';
import { modelSizeLabel } from '../../src-shared/model-labels';

interface ModelFlags {
  model?: string;
  provider: string;
}

/** The data folder's voice library; `use` runs with it open and closes it after. */
export async function withVoiceLibrary<T>(use: (voices: VoiceLibraryService) => Promise<T>, dataDir = defaultUserDataDir()): Promise<T> {
  const library = new LibraryService({ dataDir });
  try {
    return await use(new VoiceLibraryService({ dataDir, libraryDb: library.libraryDb, reservedNames: defaultReservedVoiceNames() }));
  } finally {
    library.dispose();
  }
}

/** The data folder's saved voices' conditioning; none where the library cannot open (no SQLite backend in this runtime). */
export async function savedVoiceConditioning(): Promise<SavedVoiceConditioning[]> {
  try {
    return await withVoiceLibrary(async (voices) => voices.conditioning());
  } catch {
    return [];
  }
}

async function withModel<T>(flags: ModelFlags, use: (service: SynthesisService, model: ModelInfo) => Promise<T>): Promise<T> {
  const service = await createSynthesisService(
    { model: flags.model ?? process.env.STUDIO_MODEL ?? EMBEDDED_TINY, cacheDir: path.join(defaultUserDataDir(), 'cache'), engineConfig: { provider: flags.provider } },
    () => {},
    () => {},
  );
  try {
    return await use(service, (await service.call('modelInfo', {})) as ModelInfo);
  } finally {
    await service.dispose();
  }
}

function describeVoice(v: SavedVoice): string {
  const what = v.kind === 'clone' ? `cloned ${v.cloneMode === 'icl' ? 'in-context' : 'x-vector'} (${modelSizeLabel(v.model.size)} Base${v.clip ? `, ${(v.clip.durationMs / 1000).toFixed(1)} s of ${v.clip.originalName}` : ''})` : `designed: "${v.description}"`;
  const samples = (v.samples?.length ?? 0) > 1 ? `, sample ${v.activeSampleId} of ${v.samples!.length}` : '';
  return `${v.id}  ${v.name.padEnd(20)} ${what}${samples}`;
}

function found(voices: VoiceLibraryService, idOrName: string): SavedVoice {
  const voice = voices.find(idOrName);
  if (!voice) throw new UsageError(`no saved voice '${idOrName}'`, "list them with 'studio voice list'");
  return voice;
}

/** A cloned voice's samples, numbered from 1 as `voice samples` lists them; a designed voice has none. */
function samplesOf(v: SavedVoice): SavedVoiceSample[] {
  if (v.kind !== 'clone') throw new UsageError(`'${v.name}' is a designed voice; only cloned voices keep reference samples`, "list the cloned ones with 'studio voice list'");
  return v.samples ?? [];
}

function describeSample(v: SavedVoice, s: SavedVoiceSample, index: number): string {
  const active = s.sampleId === (v.activeSampleId ?? samplesOf(v)[0]?.sampleId) ? '*' : ' ';
  const mode = s.cloneMode === 'icl' ? 'in-context' : 'x-vector';
  const warned = s.warnings.length > 0 ? `  (${s.warnings.length} warning${s.warnings.length === 1 ? '' : 's'})` : '';
  return `${active} ${String(index + 1).padStart(2)}  ${s.sampleId.padEnd(10)} ${mode.padEnd(10)} ${(s.clip.durationMs / 1000).toFixed(1)} s of ${s.clip.originalName}${warned}`;
}

/** A sample by its number in the list (1…) or its id. */
function sampleId(v: SavedVoice, ref: string): string {
  const samples = samplesOf(v);
  const byId = samples.find((s) => s.sampleId === ref);
  if (byId) return byId.sampleId;
  const n = /^\d+$/.test(ref) ? Number(ref) : NaN;
  if (n >= 1 && n <= samples.length) return samples[n - 1].sampleId;
  throw new UsageError(`'${v.name}' has no sample '${ref}' (it has ${samples.length})`, `give a number from 1 to ${samples.length} or an id, as 'studio voice samples ${v.name}' lists them`);
}

export function registerVoice(program: Command): void {
  const voice = program.command('voice').description('the voice library: voices cloned from a clip (Base models) or designed from a description (VoiceDesign)');

  voice
    .command('list')
    .description('list the saved voices')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const list = await withVoiceLibrary(async (voices) => voices.list());
      if (opts.json) console.log(JSON.stringify(list, null, 2));
      else if (list.length === 0) console.log("no saved voices; make one with 'studio voice clone clip.wav --name Anna --model <Base model>'");
      else for (const v of list) console.log(describeVoice(v));
    });

  voice
    .command('clone <clip>')
    .description(`clone the voice of a clip (WAV, FLAC, MP3, Ogg Vorbis or Opus; 5–15 s of one person speaking, at most ${MAX_REFERENCE_BYTES / 1048576} MB) with a Base model and save it`)
    .requiredOption('--name <name>', 'the name to save it under (used by --voice, SSML <voice name> and the API)')
    .option('--text <transcript>', "what the clip says: clones in-context (the official default, more faithful); without it the voice comes from the speaker embedding alone")
    .option('--model <dir>', 'a Base model folder (Qwen3-TTS-12Hz-0.6B-Base or 1.7B-Base, built or checkpoint)')
    .option('--provider <name>', listProviderChoices(' or '), 'auto')
    .action(async (clip: string, opts: ModelFlags & { name: string; text?: string }) => {
      const audio = readClipFile(clip);
      const saved = await withVoiceLibrary(async (voices) => {
        voices.checkName(opts.name); // before the model loads
        return withModel(opts, (service, model) =>
          voices.clone({ name: opts.name, audio, originalName: path.basename(clip), refText: opts.text }, model, (bytes, refText) => service.call('makeVoice', { audio: bytes, refText }) as Promise<HostMethods['makeVoice']['result']>),
        );
      });
      console.log(describeVoice(saved));
      for (const w of saved.warnings) process.stderr.write(`warning: ${w}\n`);
    });

  voice
    .command('design <description>')
    .description('save a VoiceDesign description as a named voice')
    .requiredOption('--name <name>', 'the name to save it under')
    .option('--model <dir>', 'a VoiceDesign model folder (Qwen3-TTS-12Hz-1.7B-VoiceDesign)')
    .option('--provider <name>', listProviderChoices(' or '), 'auto')
    .action(async (description: string, opts: ModelFlags & { name: string }) => {
      const saved = await withVoiceLibrary(async (voices) => {
        voices.checkName(opts.name);
        return withModel(opts, async (_service, model) => voices.design({ name: opts.name, description }, model));
      });
      console.log(describeVoice(saved));
    });

  voice
    .command('rename <voice> <newName>')
    .description('rename a saved voice (by id or name)')
    .action(async (idOrName: string, newName: string) => {
      console.log(describeVoice(await withVoiceLibrary(async (voices) => voices.rename(found(voices, idOrName).id, newName))));
    });

  voice
    .command('samples <voice>')
    .description('list the reference samples of a cloned voice (by id or name); * marks the one it speaks with')
    .option('--json', 'print JSON')
    .action(async (idOrName: string, opts: { json?: boolean }) => {
      const v = await withVoiceLibrary(async (voices) => found(voices, idOrName));
      const samples = samplesOf(v);
      if (opts.json) console.log(JSON.stringify({ activeSampleId: v.activeSampleId ?? samples[0]?.sampleId ?? null, samples }, null, 2));
      else samples.forEach((s, i) => console.log(describeSample(v, s, i)));
    });

  voice
    .command('add-sample <voice> <clip>')
    .description('clone another clip of a saved voice as one more sample (with a Base model of the size it was cloned with); the voice keeps speaking with its current sample unless --use')
    .option('--text <transcript>', 'what the clip says (in-context cloning, as for voice clone)')
    .option('--use', 'speak with the new sample from now on')
    .option('--model <dir>', 'a Base model folder of the size the voice was cloned with')
    .option('--provider <name>', listProviderChoices(' or '), 'auto')
    .action(async (idOrName: string, clip: string, opts: ModelFlags & { text?: string; use?: boolean }) => {
      const audio = readClipFile(clip);
      const { voice: saved, added } = await withVoiceLibrary(async (voices) => {
        const before = found(voices, idOrName);
        const known = new Set(samplesOf(before).map((s) => s.sampleId)); // before the model loads
        let updated = await withModel(opts, (service, model) =>
          voices.addSample(before.id, { audio, originalName: path.basename(clip), refText: opts.text }, model, (bytes, refText) => service.call('makeVoice', { audio: bytes, refText }) as Promise<HostMethods['makeVoice']['result']>),
        );
        const fresh = (updated.samples ?? []).find((s) => !known.has(s.sampleId))!;
        if (opts.use) updated = voices.useSample(updated.id, fresh.sampleId);
        return { voice: updated, added: fresh };
      });
      console.log(describeSample(saved, added, samplesOf(saved).findIndex((s) => s.sampleId === added.sampleId)));
      for (const w of added.warnings) process.stderr.write(`warning: ${w}\n`);
    });

  voice
    .command('use-sample <voice> <sample>')
    .description('make one of a cloned voice\'s samples (its number in voice samples, or its id) the one it speaks with')
    .action(async (idOrName: string, ref: string) => {
      const saved = await withVoiceLibrary(async (voices) => {
        const v = found(voices, idOrName);
        return voices.useSample(v.id, sampleId(v, ref));
      });
      samplesOf(saved).forEach((s, i) => console.log(describeSample(saved, s, i)));
    });

  voice
    .command('delete <voice>')
    .description('delete a saved voice (by id or name) and its copy of the clip')
    .action(async (idOrName: string) => {
      const name = await withVoiceLibrary(async (voices) => {
        const v = found(voices, idOrName);
        await voices.delete(v.id);
        return v.name;
      });
      console.log(`deleted ${name}`);
    });
}
