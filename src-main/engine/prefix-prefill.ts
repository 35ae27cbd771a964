/**
 * The prefill of admitted sequences, in two runs: each prompt's text-independent prefix
 * (prompt.ts numPrefixRows) first, then the rest continuing from it. A prefix found in the
 * prompt-prefix KV cache is copied in instead of run; a missing one is run once per key, kept, and
 * copied into its same-step twins. The prefix is a run of its own whether or not the cache holds it,
 * so output bytes never depend on a hit (engine-prefix-cache.model.test.ts).
 */
import { promptEmbeds, type FrameContext } from './frame-steps';
import type { TalkerInput } from './stages/stages';
import { prefixKvKey, type PrefixKv } from './kv/prefix-kv-cache';
import type { Sequence } from './sequence';

export async function prefill(ctx: FrameContext, sequences: readonly Sequence[]): Promise<void> {
  if (sequences.length === 0) return;
  const h = ctx.stages.talker.hiddenSize;
  const embeds = new Map(sequences.map((s) => [s, promptEmbeds(ctx, s)]));
  const numPrefixRows = await fillPrefixes(ctx, sequences, embeds);
  const inputs: TalkerInput[] = sequences.map((s) => {
    const numSkipped = numPrefixRows.get(s) ?? 0;
    return { sequenceId: s.id, embeds: embeds.get(s)!.subarray(numSkipped * h), numRows: s.prompt.rows.length - numSkipped };
  });
  const outputs = await ctx.stages.talker.prefill(inputs);
  sequences.forEach((s, i) => (s.pending = outputs[i]));
}

/**
 * Gives each sequence with a prefix its prefix KV (copied from the cache, or run and kept); returns
 * the rows each now holds. A talker without prefix copies (the unit tests' fake) prefills whole prompts.
 */
async function fillPrefixes(ctx: FrameContext, sequences: readonly Sequence[], embeds: Map<Sequence, Float32Array>): Promise<Map<Sequence, number>> {
  const talker = ctx.stages.talker;
  const held = new Map<Sequence, number>();
  if (!talker.readPrefixKv || !talker.writePrefixKv) return held;
  const cache = ctx.prefixCache?.cache ?? null;
  const modelId = ctx.prefixCache?.modelId ?? '';
  const toRun = new Map<string, Sequence>();
  const twins: { s: Sequence; key: string }[] = [];
  for (const s of sequences) {
    const numRows = s.prompt.numPrefixRows;
    if (numRows === 0) continue;
    held.set(s, numRows);
    const key = prefixKvKey(modelId, s.prompt.rows.slice(0, numRows));
    const cached = toRun.has(key) ? undefined : cache?.get(key);
    if (cached) await talker.writePrefixKv(s.id, cached);
    else if (toRun.has(key)) twins.push({ s, key });
    else toRun.set(key, s);
  }
  const h = talker.hiddenSize;
  const runs = [...toRun.values()];
  if (runs.length > 0) await talker.prefill(runs.map((s) => ({ sequenceId: s.id, embeds: embeds.get(s)!.subarray(0, s.prompt.numPrefixRows * h), numRows: s.prompt.numPrefixRows })));
  const computed = new Map<string, PrefixKv>();
  for (const [key, s] of toRun) {
    const needed = twins.some((t) => t.key === key) || (cache !== null && cache.maxBytes > 0);
    if (!needed) continue;
    const kv = await talker.readPrefixKv(s.id, s.prompt.numPrefixRows);
    computed.set(key, kv);
    cache?.set(key, kv);
  }
  for (const t of twins) await talker.writePrefixKv(t.s.id, computed.get(t.key)!);
  return held;
}
