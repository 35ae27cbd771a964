/**
 * The messages between the engine host and its insert worker threads (insert-workers.ts ↔
 * insert-worker.ts): a task gets exactly one reply with the same id. Types only.
 * Runs in the engine host process (engine-host/; see docs/architecture.md).
 */
import type { SerializedStudioError } from '../../src-shared/errors';
import type { SynthesisRequest, SynthesisResult } from '../../src-shared/synthesis';
import type { WavLayout } from '../audio/wav-read';
import type { DecodedInsert } from './insert-decode';
import type { JoinedAudio } from './join-turns';
import type { TurnPlan } from './turn-plan';

/** The inserts a join needs: decoded PCM per src (shared memory) and the refusal warnings. */
export interface JoinInserts {
  audio: Map<string, DecodedInsert>;
  warnings: string[];
}

export type InsertTask =
  | { kind: 'decode'; id: number; src: string; bytes: Uint8Array; layout: WavLayout; outputSampleRateHz: number }
  | { kind: 'join'; id: number; request: SynthesisRequest; plan: TurnPlan; turns: SynthesisResult[]; inserts: JoinInserts };

export interface InsertTaskResults {
  decode: DecodedInsert;
  join: JoinedAudio;
}

export type InsertTaskReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedStudioError };
