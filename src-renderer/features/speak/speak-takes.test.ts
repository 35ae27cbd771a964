// Speak's take history in the store: a generation files a numbered take first; the history keeps
// the last MAX_SPEAK_TAKES but never drops a kept take; A/B names two takes of the history and lets
// go of a dropped one; the history survives a reload through localStorage and a bad value is dropped.
import { beforeEach, describe, expect, it } from 'vitest';
import { resetStore, useStudioStore } from '../../store/store';
import { defaultCompare, MAX_SPEAK_TAKES, speakTakeFileName, trimSpeakTakes, type SpeakTake } from './speak-takes';
import { parseSpeakTakes, readSpeakTakes, SPEAK_TAKES_STORAGE_KEY, startSpeakTakesPersistence } from './speak-takes-persist';
import { takeName } from '../../components/take-name';

const USED = { doSample: true, temperature: 0.9, topK: 50, topP: 1, repetitionPenalty: 1.05, subtalkerDoSample: true, subtalkerTemperature: 0.9, subtalkerTopK: 50, subtalkerTopP: 1, maxNewTokens: 2048, seed: 42, voice: 'aiden', language: 'english' };

function fields(id: string, seed = 42): Omit<SpeakTake, 'takeNumber' | 'kept'> {
  return { takeId: id, createdAtMs: 1_000, input: `text ${id}`, inputFormat: 'text', instruct: '', used: { ...USED, seed }, modelId: 'tiny', sampleRateHz: 24_000, durationMs: 500, rtf: 0.1 };
}

const audio = (n: number) => ({ sampleRateHz: 24_000, pcm: new Float32Array(n) });

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

describe('Speak take history', () => {
  beforeEach(() => resetStore());

  it('files each generation first, numbered in the order made, with the one take name', () => {
    const s = useStudioStore.getState();
    const first = s.addSpeakTake(fields('a', 1), audio(10));
    const second = useStudioStore.getState().addSpeakTake(fields('b', 2), null);
    expect([first.takeNumber, second.takeNumber]).toEqual([1, 2]);
    const takes = useStudioStore.getState().speakTakes;
    expect(takes.map((t) => [t.takeId, takeName(t.takeNumber), t.kept])).toEqual([
      ['b', 'Take 2', false],
      ['a', 'Take 1', false],
    ]);
    expect(useStudioStore.getState().speakTakeAudio.a?.pcm.length).toBe(10);
    expect(useStudioStore.getState().speakTakeAudio.b).toBeUndefined();
  });

  it('keeps the last MAX_SPEAK_TAKES and never drops a kept take', () => {
    const s = useStudioStore.getState();
    s.addSpeakTake(fields('oldest-kept'), audio(1));
    s.setSpeakTakeKept('oldest-kept', true);
    s.addSpeakTake(fields('oldest-unkept'), audio(1));
    for (let i = 0; i < MAX_SPEAK_TAKES; i++) useStudioStore.getState().addSpeakTake(fields(`t${i}`), audio(1));
    const { speakTakes, speakTakeAudio, nextSpeakTakeNumber } = useStudioStore.getState();
    // 52 made: the kept one plus the 49 newest unkept fill the 50.
    expect(speakTakes).toHaveLength(MAX_SPEAK_TAKES);
    expect(speakTakes.at(-1)?.takeId).toBe('oldest-kept');
    expect(speakTakes.some((t) => t.takeId === 'oldest-unkept' || t.takeId === 't0')).toBe(false);
    expect(speakTakeAudio['oldest-unkept']).toBeUndefined();
    expect(nextSpeakTakeNumber).toBe(MAX_SPEAK_TAKES + 3);
  });

  it('trims to the kept takes alone when they fill the history', () => {
    const take = (id: string, kept: boolean) => ({ ...fields(id), takeNumber: 1, kept });
    expect(trimSpeakTakes([take('a', false), take('b', true), take('c', true)], 2).map((t) => t.takeId)).toEqual(['b', 'c']);
    expect(trimSpeakTakes([take('a', false), take('b', false), take('c', true)], 2).map((t) => t.takeId)).toEqual(['a', 'c']);
  });

  it('removes only unkept takes from the history', () => {
    const s = useStudioStore.getState();
    s.addSpeakTake(fields('a'), null);
    s.addSpeakTake(fields('b'), null);
    s.setSpeakTakeKept('a', true);
    s.removeSpeakTake('a');
    s.removeSpeakTake('b');
    expect(useStudioStore.getState().speakTakes.map((t) => t.takeId)).toEqual(['a']);
  });

  it('compares the newest take against the one before and lets go of a take that left', () => {
    const s = useStudioStore.getState();
    s.addSpeakTake(fields('a'), null);
    expect(defaultCompare(useStudioStore.getState().speakTakes)).toBeNull();
    s.addSpeakTake(fields('b'), null);
    s.addSpeakTake(fields('c'), null);
    const pair = defaultCompare(useStudioStore.getState().speakTakes);
    expect(pair).toEqual({ takeIdA: 'b', takeIdB: 'c' });
    s.setSpeakCompare({ takeIdA: 'a', takeIdB: 'a' });
    expect(useStudioStore.getState().speakCompare).toBeNull();
    s.setSpeakCompare({ takeIdA: 'a', takeIdB: 'missing' });
    expect(useStudioStore.getState().speakCompare).toBeNull();
    s.setSpeakCompare({ takeIdA: 'a', takeIdB: 'c' });
    s.setSpeakSounding({ takeId: 'a', side: 'A' });
    expect(useStudioStore.getState().speakCompare).toEqual({ takeIdA: 'a', takeIdB: 'c' });
    s.removeSpeakTake('a');
    expect(useStudioStore.getState().speakCompare).toBeNull();
    expect(useStudioStore.getState().speakSounding).toBeNull();
  });

  it('names a download after the take, its voice and seed', () => {
    const take = { ...fields('a', 4242), takeNumber: 3, kept: false };
    expect(speakTakeFileName(take, 'Uncle Fu')).toBe('take-3-uncle-fu-seed4242.wav');
  });
});

describe('Speak take history across reloads', () => {
  beforeEach(() => resetStore());

  it('writes the history on every change and restores it, numbering continued', () => {
    const storage = new MemoryStorage();
    const { stop } = startSpeakTakesPersistence(useStudioStore, storage);
    useStudioStore.getState().addSpeakTake(fields('a'), audio(5));
    useStudioStore.getState().addSpeakTake(fields('b'), audio(5));
    useStudioStore.getState().setSpeakTakeKept('a', true);
    stop();
    const stored = readSpeakTakes(storage);
    expect(stored?.takes.map((t) => [t.takeId, t.takeNumber, t.kept])).toEqual([
      ['b', 2, false],
      ['a', 1, true],
    ]);
    // The audio is not stored: the Library has it.
    expect(storage.getItem(SPEAK_TAKES_STORAGE_KEY)).not.toContain('pcm');

    resetStore();
    const again = startSpeakTakesPersistence(useStudioStore, storage);
    expect(again.restored).not.toBeNull();
    expect(useStudioStore.getState().speakTakes.map((t) => t.takeId)).toEqual(['b', 'a']);
    expect(useStudioStore.getState().addSpeakTake(fields('c'), null).takeNumber).toBe(3);
    again.stop();
  });

  it('drops a stored value of another version or with a bad take', () => {
    const storage = new MemoryStorage();
    storage.setItem(SPEAK_TAKES_STORAGE_KEY, JSON.stringify({ version: 1, nextSpeakTakeNumber: 2, takes: [{ ...fields('a'), takeNumber: 1, kept: 'yes' }] }));
    expect(readSpeakTakes(storage)).toBeNull();
    expect(storage.getItem(SPEAK_TAKES_STORAGE_KEY)).toBeNull();
    storage.setItem(SPEAK_TAKES_STORAGE_KEY, '{not json');
    expect(readSpeakTakes(storage)).toBeNull();
    expect(parseSpeakTakes({ version: 2, nextSpeakTakeNumber: 1, takes: [] })).toBeNull();
    expect(parseSpeakTakes({ version: 1, nextSpeakTakeNumber: 2, takes: [{ ...fields('a'), takeNumber: 1, kept: false }] })?.takes).toHaveLength(1);
  });
});
