/**
 * Part files and assembly without an engine: a part whose file exists is not rendered again, a
 * rendered part lands complete under its id, and assembly joins parts in plan order with paragraph
 * and chapter pauses and one gain for the whole work (a quiet part stays quieter than a loud one);
 * the saved voices a part names go with its request (local renders from the CLI).
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeWav, encodeWav } from '../audio/wav';
import type { RenderPlan } from './render-plan';
import { assembleWork, partFile, renderPart } from './render-parts';
import { renderLocally } from './render-local';
import type { SavedVoiceConditioning } from '../../src-shared/contract/voices';

const RATE = 24_000;
const tone = (amplitude: number, numSamples: number) => Float32Array.from({ length: numSamples }, (_, i) => amplitude * Math.sin((2 * Math.PI * 440 * i) / RATE));

function planOf(ids: string[], chapters: number[]): RenderPlan {
  return {
    settings: { voice: 'ryan', language: 'english', seed: 1, model: 'm' },
    chapters: [...new Set(chapters)].map((c) => ({ title: `c${c}`, numParts: chapters.filter((x) => x === c).length })),
    parts: ids.map((id, index) => ({ id, index, chapter: chapters[index], chapterTitle: `c${chapters[index]}`, input: id, inputFormat: 'text' as const })),
  };
}

describe('render parts', () => {
  it('renders a missing part to its file and skips one that exists', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-parts-'));
    const calls: string[] = [];
    const host = { call: async (_m: string, req: { requestId: string }) => (calls.push(req.requestId), { pcm: tone(0.1, 480), sampleRateHz: RATE }) } as never;
    const settings = planOf([], []).settings;
    expect(await renderPart(host, { id: 'p1', input: 'x', inputFormat: 'text' }, settings, dir, 'r1')).toEqual({ partId: 'p1', numSamples: 480, skipped: false });
    expect(await renderPart(host, { id: 'p1', input: 'x', inputFormat: 'text' }, settings, dir, 'r2')).toEqual({ partId: 'p1', numSamples: 480, skipped: true });
    expect(calls).toEqual(['r1']);
    expect(fs.readdirSync(path.join(dir, 'parts'))).toEqual(['p1.wav']);
  });

  it("sends each part's saved voices with its request, and none where a part names none", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-parts-'));
    const seen = new Map<string, string[] | undefined>();
    const host = {
      call: async (_m: string, req: { input: string; savedVoices?: SavedVoiceConditioning[] }) => (seen.set(req.input, req.savedVoices?.map((v) => v.name)), { pcm: tone(0.1, 480), sampleRateHz: RATE }),
    } as never;
    const anna: SavedVoiceConditioning = { id: 'v-0123456789ab', name: 'Anna', kind: 'design', modelKind: 'voice_design', modelSize: '1.7b', description: 'calm' };
    const plan = planOf(['a', 'b'], [0, 0]);
    const { failures } = await renderLocally(host, plan, dir, () => {}, { concurrency: 1, savedVoicesFor: (part) => (part.input === 'a' ? [anna] : []) });
    expect(failures).toEqual([]);
    expect([...seen.entries()].sort()).toEqual([['a', ['Anna']], ['b', undefined]]);
  });

  it('assembles in plan order with pauses and one gain over the whole work', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-parts-'));
    fs.mkdirSync(path.join(dir, 'parts'));
    const loud = tone(0.5, RATE);
    const quiet = tone(0.05, RATE / 2);
    fs.writeFileSync(partFile(dir, 'loud'), encodeWav(loud, RATE, 'float32'));
    fs.writeFileSync(partFile(dir, 'quiet'), encodeWav(quiet, RATE, 'float32'));
    const plan = planOf(['loud', 'quiet', 'loud'], [0, 0, 1]);
    const work = assembleWork(plan, dir, { paragraphPauseMs: 100, chapterPauseMs: 500, loudness: { targetLufs: -20, truePeakCeilingDbtp: -1 }, format: 'float32' });
    const paragraphPause = RATE / 10;
    const chapterPause = RATE / 2;
    expect(work.numSamples).toBe(RATE + paragraphPause + RATE / 2 + chapterPause + RATE);
    expect(work.chapterStarts).toEqual([0, RATE + paragraphPause + RATE / 2 + chapterPause]);
    expect(work.finalLufs).toBeCloseTo(-20, 1);
    const pcm = decodeWav(work.wav).pcm;
    const peak = (from: number, n: number) => pcm.subarray(from, from + n).reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    // one gain: the quiet part keeps its 1/10 of the loud part's level
    expect(peak(RATE + paragraphPause, RATE / 2) / peak(0, RATE)).toBeCloseTo(0.1, 3);
    expect(peak(RATE, paragraphPause)).toBe(0);
    expect(() => assembleWork(planOf(['loud', 'gone'], [0, 0]), dir)).toThrow(/1 of 2 parts are not rendered yet/);
  });
});
