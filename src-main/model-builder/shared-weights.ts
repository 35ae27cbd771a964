/**
 * Which weights file a graph references. Its own: `<file>.data` beside it (graphWithOwnWeights). A second
 * graph over the same weights (the capture-ready forms) points at the first graph's data file instead of
 * writing a copy: it is written once to a scratch file and compared byte for byte; equal (the same
 * initializers in the same order) → the scratch goes, else it is written again with its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { GraphSpec, IoSpec } from '../model-format/manifest';

/** The manifest entry of a graph written with its own weights file, `<file>.data`. */
export function graphWithOwnWeights(file: string, io: { inputs: IoSpec[]; outputs: IoSpec[] }, doc: string): GraphSpec {
  return { file, externalDataFile: `${file}.data`, inputs: io.inputs, outputs: io.outputs, doc };
}

function sameBytes(a: string, b: string): boolean {
  if (fs.statSync(a).size !== fs.statSync(b).size) return false;
  const [fa, fb] = [fs.openSync(a, 'r'), fs.openSync(b, 'r')];
  try {
    const [ba, bb] = [Buffer.alloc(1 << 20), Buffer.alloc(1 << 20)];
    for (;;) {
      const n = fs.readSync(fa, ba, 0, ba.length, null);
      if (n !== fs.readSync(fb, bb, 0, bb.length, null)) return false;
      if (n === 0) return true;
      if (!ba.subarray(0, n).equals(bb.subarray(0, n))) return false;
    }
  } finally {
    fs.closeSync(fa);
    fs.closeSync(fb);
  }
}

/** Writes `file` via write(dataPath, location); returns the data file it references (sharedDataFile when the weights match). */
export function writeSharingWeights(outDir: string, file: string, sharedDataFile: string, write: (dataPath: string, location: string) => void): string {
  const own = `${file}.data`;
  const scratch = path.join(outDir, `${own}.tmp`);
  write(scratch, sharedDataFile);
  const isShared = sameBytes(scratch, path.join(outDir, sharedDataFile));
  fs.rmSync(scratch);
  if (isShared) return sharedDataFile;
  write(path.join(outDir, own), own);
  return own;
}
