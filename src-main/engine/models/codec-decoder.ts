/**
 * Codec stage: the speech tokenizer's decoder graph, codes [1, numQuantizers, T] → PCM [1, T·1920].
 * The manifest does not list a codec graph yet, so the graph is built here at load time from the
 * checkpoint's speech_tokenizer/ with the codec colleague's builder. Always run at batch 1, one
 * sequence per call, so a sequence's PCM cannot depend on other sequences (batch invariance).
 */
import fs from 'node:fs';
import path from 'node:path';
import { StudioError } from '../../../src-shared/errors';
import { readCodecConfig, type CodecConfig } from '../../model-builder/codec/codec-config';
import { buildCodecDecoderGraph, CODEC_GRAPH_INPUT, CODEC_GRAPH_OUTPUT } from '../../model-builder/codec/codec-graph';
import type { CodecTensor } from '../../model-builder/codec/codec-tensor-shapes';
import { SafetensorsFile } from '../../model-builder/safetensors';
import { createSession, runSession, tensor, type OrtSession, type SessionOptions } from '../runtime/ort';
import type { CodecStage } from './stages';

export class OrtCodecDecoder implements CodecStage {
  readonly sampleRateHz: number;
  readonly samplesPerFrame: number;

  constructor(private readonly session: OrtSession, private readonly config: CodecConfig) {
    this.sampleRateHz = config.outputSampleRateHz;
    this.samplesPerFrame = config.samplesPerFrame;
  }

  async decode(codes: readonly (readonly number[])[]): Promise<Float32Array> {
    const numFrames = codes.length;
    const numQuantizers = this.config.decoder.numQuantizers;
    const data = new BigInt64Array(numQuantizers * numFrames); // [1, Q, T]
    codes.forEach((frame, t) => frame.forEach((c, q) => (data[q * numFrames + t] = BigInt(c))));
    const out = await runSession(this.session, { [CODEC_GRAPH_INPUT]: tensor('int64', data, [1, numQuantizers, numFrames]) });
    return (out[CODEC_GRAPH_OUTPUT].data as Float32Array).slice();
  }

  async dispose(): Promise<void> {
    await this.session.release();
  }
}

/** Builds the decoder graph from `checkpointDir/speech_tokenizer` and opens it. */
export async function openCodecDecoder(checkpointDir: string, dtype: 'fp32' | 'fp16', options: SessionOptions): Promise<OrtCodecDecoder> {
  const dir = path.join(checkpointDir, 'speech_tokenizer');
  const configPath = path.join(dir, 'config.json');
  if (!fs.existsSync(configPath)) {
    throw new StudioError('model-missing', `speech tokenizer config ${configPath} not found; the checkpoint folder is incomplete, download it again`, { field: 'modelDir', path: configPath });
  }
  const config = readCodecConfig(configPath);
  const weights = SafetensorsFile.open(path.join(dir, 'model.safetensors'));
  const tensors = new Map<string, CodecTensor>();
  try {
    for (const name of weights.names()) {
      if (name.startsWith('decoder.')) tensors.set(name, { shape: weights.info(name).shape, data: weights.readFloat32(name) });
    }
  } finally {
    weights.close();
  }
  const session = await createSession(buildCodecDecoderGraph(tensors, config, dtype), options);
  return new OrtCodecDecoder(session, config);
}
