/**
 * Where each row of a bound talker bucket's next run takes its KV from (pure). A bucket row holds one
 * sequence at one length ('id@positions', exactly those positions and zeros after them); a wanted row
 * found in an open bucket of no larger capacity is gathered from it on the device (the regroup graph pads
 * it to the run's capacity), and only the rest are staged from the host pool. A run that reads no open
 * bucket stages the whole bucket from the pool (padded copies too): gathering padded copies of rows staged
 * once made captured CUDA runs differ from bound ones (bisected on an H100, 2026-12-07).
 */

/** An open bucket as a source: its key, KV capacity, and what each of its rows holds ('' when stale). */
export interface KvHolder {
  key: string;
  capacity: number;
  rows: readonly string[];
}

export interface RowSourcePlan {
  /** Keys of the holders gathered from, in the order their rows are concatenated. */
  sources: string[];
  /** For each wanted row, its row in [sources' rows..., fresh rows...]. */
  pick: number[];
  /** Indices into `want` of the rows staged from the host pool, one per distinct fresh key. */
  fresh: number[];
}

/**
 * The plan for `want` (one 'id@positions' key per run row) at `capacity`, reading at most
 * `maxDeviceSources` holders: holders already chosen first, then the list's order (the run's own bucket
 * first, then the most recently used).
 */
export function planRowSources(want: readonly string[], holders: readonly KvHolder[], capacity: number, maxDeviceSources = 2): RowSourcePlan {
  const usable = holders.filter((h) => h.capacity <= capacity);
  const chosen: KvHolder[] = [];
  const found = want.map((key) => {
    for (let c = 0; c < chosen.length; c++) {
      const row = chosen[c].rows.indexOf(key);
      if (row >= 0) return { holder: c, row };
    }
    if (chosen.length >= maxDeviceSources) return null;
    for (const h of usable) {
      const row = chosen.includes(h) ? -1 : h.rows.indexOf(key);
      if (row >= 0) {
        chosen.push(h);
        return { holder: chosen.length - 1, row };
      }
    }
    return null;
  });
  const offsets: number[] = [];
  let numDeviceRows = 0;
  for (const h of chosen) {
    offsets.push(numDeviceRows);
    numDeviceRows += h.rows.length;
  }
  const freshKeys: string[] = [];
  const fresh: number[] = [];
  const pick = want.map((key, k) => {
    const at = found[k];
    if (at) return offsets[at.holder] + at.row;
    let f = freshKeys.indexOf(key);
    if (f < 0) {
      f = freshKeys.push(key) - 1;
      fresh.push(k);
    }
    return numDeviceRows + f;
  });
  return { sources: chosen.map((h) => h.key), pick, fresh };
}

/** True when the plan reads no open bucket: the run stages its whole bucket from the pool with a plain copy, no gather. */
export function readsNoBucket(plan: RowSourcePlan): boolean {
  return plan.sources.length === 0;
}
