/**
 * Pure layout of the talker's fixed-capacity KV buffers: a row's capacity is its position count
 * rounded up to a power-of-two number of blocks (so it depends on that row alone, and a long run meets
 * few capacities: fewer decode groups a step, fewer graph buckets to capture), and a staged past tensor
 * is [rows, numKvHeads, capacity, headDim] per layer for keys and for values.
 */
export interface KvDims {
  numLayers: number;
  numKvHeads: number;
  headDim: number;
  /** Positions per pool block; capacities are multiples of it. */
  blockPositions: number;
}

/** Slots of the buffer a row with `numPositions` positions (after this run) is staged in: 1, 2, 4, 8, … blocks. */
export function kvCapacity(numPositions: number, blockPositions: number): number {
  const blocks = Math.ceil(numPositions / blockPositions);
  let capacityBlocks = 1;
  while (capacityBlocks < blocks) capacityBlocks *= 2;
  return capacityBlocks * blockPositions;
}

/** Elements of one layer's keys (or values) for `rows` rows at `capacity` slots. */
export function stagedElements(dims: KvDims, rows: number, capacity: number): number {
  return rows * dims.numKvHeads * capacity * dims.headDim;
}

/** Elements of one pool block: every layer's keys and values for blockPositions positions. */
export function blockElements(dims: KvDims): number {
  return dims.numLayers * 2 * dims.numKvHeads * dims.blockPositions * dims.headDim;
}

/** Offset in a block of (layer, keys|values, head, position-in-block). */
export function blockOffset(dims: KvDims, layer: number, which: 0 | 1, head: number, positionInBlock: number): number {
  return (((layer * 2 + which) * dims.numKvHeads + head) * dims.blockPositions + positionInBlock) * dims.headDim;
}

/** The attention mask of a row: 1 for slots < numPositions, 0 up to capacity. */
export function fillAttentionMask(out: BigInt64Array, offset: number, numPositions: number, capacity: number): void {
  out.fill(1n, offset, offset + numPositions);
  out.fill(0n, offset + numPositions, offset + capacity);
}
