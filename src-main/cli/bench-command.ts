/**
 * `studio bench`: placeholder wiring until the benchmark harness lands.
 */
import type { Command } from 'commander';

export function registerBench(_program: Command): void {}
