/**
 * The progress callback shape shared by the model builder's long-running functions
 * (writeSyntheticCheckpoint, buildModel): a phase name and done/total in that phase's own unit.
 */
export interface ProgressEvent {
  phase: string;
  done: number;
  total: number;
}

export type OnProgress = (event: ProgressEvent) => void;
