/**
 * Small seeded files in the official checkpoint layout, for serving from the fake hub in
 * download tests. The bytes are random (not loadable weights); only names, sizes and hashes
 * matter here. Test-only.
 */
import { createSeededRandom } from '../../bench/arrival-schedule';

export interface SyntheticHubFilesOptions {
  seed: number;
  /** Size of model.safetensors; default 300 KB. */
  modelBytes?: number;
  /** Size of speech_tokenizer/model.safetensors; default 120 KB. */
  tokenizerBytes?: number;
}

export function makeSyntheticHubFiles(options: SyntheticHubFilesOptions): Record<string, Uint8Array> {
  const random = createSeededRandom(options.seed); // mulberry32
  const bytes = (numBytes: number) => {
    const out = new Uint8Array(numBytes);
    for (let i = 0; i < numBytes; i++) out[i] = Math.floor(random() * 256);
    return out;
  };
  const text = (s: string) => new TextEncoder().encode(s);
  return {
    '.gitattributes': text('*.safetensors filter=lfs diff=lfs merge=lfs -text\n'),
    'README.md': text(`# synthetic checkpoint (seed ${options.seed})\n`),
    'config.json': text(JSON.stringify({ architectures: ['Qwen3TTSForConditionalGeneration'], tts_model_type: 'custom_voice', seed: options.seed }, null, 2)),
    'generation_config.json': text(JSON.stringify({ do_sample: true, temperature: 0.9, top_k: 50 })),
    'vocab.json': text(JSON.stringify({ a: 0, b: 1 })),
    'merges.txt': text('#version: 0.2\na b\n'),
    'model.safetensors': bytes(options.modelBytes ?? 300_000),
    'speech_tokenizer/config.json': text(JSON.stringify({ model_type: 'qwen3_tts_tokenizer_12hz' })),
    'speech_tokenizer/model.safetensors': bytes(options.tokenizerBytes ?? 120_000),
  };
}
