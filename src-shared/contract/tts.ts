/**
 * The tts and engine services of the studio contract: synthesize (cancellable, with event
 * streams), cancel, voices and engine status. Types and channel names only.
 */
import type {
  AudioChunk,
  EngineStatus,
  ModelInfo,
  SynthesisOutcome,
  SynthesisProgress,
  SynthesisRequest,
  SynthesisResult,
  VoiceInfo,
} from '../synthesis';

export const TTS_CHANNELS = Object.freeze({
  synthesize: 'studio:tts.synthesize',
  cancel: 'studio:tts.cancel',
  listVoices: 'studio:tts.listVoices',
  engineStatus: 'studio:engine.status',
  modelInfo: 'studio:engine.modelInfo',
  loadModel: 'studio:engine.loadModel',
} as const);

export const TTS_EVENTS = Object.freeze({
  onDidProduceAudio: 'studio:tts.onDidProduceAudio',
  onDidProgress: 'studio:tts.onDidProgress',
  onDidFinish: 'studio:tts.onDidFinish',
  onDidChangeEngineStatus: 'studio:engine.onDidChangeStatus',
} as const);

export interface TtsApi {
  [TTS_CHANNELS.synthesize]: { request: SynthesisRequest; response: SynthesisResult };
  [TTS_CHANNELS.cancel]: { request: { requestId: string }; response: { cancelled: boolean } };
  [TTS_CHANNELS.listVoices]: { request: Record<string, never>; response: VoiceInfo[] };
  [TTS_CHANNELS.engineStatus]: { request: Record<string, never>; response: EngineStatus };
  [TTS_CHANNELS.modelInfo]: { request: Record<string, never>; response: ModelInfo | null };
  /** Restarts the engine host on another model ('embedded:tiny' or an installed model id); in-flight requests end as cancelled. */
  [TTS_CHANNELS.loadModel]: { request: { modelId: string }; response: ModelInfo | null };
}

export interface TtsEvents {
  [TTS_EVENTS.onDidProduceAudio]: AudioChunk;
  [TTS_EVENTS.onDidProgress]: SynthesisProgress;
  [TTS_EVENTS.onDidFinish]: SynthesisOutcome;
  [TTS_EVENTS.onDidChangeEngineStatus]: EngineStatus;
}
