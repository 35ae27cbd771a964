// The preload's drop listener: only real dropped files (those with a path) reach main, at most
// MAX_DROPPED_FILES; drags without files (text inside the editor) are left alone.
import { describe, expect, it } from 'vitest';
import { DESKTOP_DROP_MESSAGE, MAX_DROPPED_FILES } from '../src-shared/contract/desktop';
import { listenForDroppedFiles } from './drop-listener';

function setup() {
  const listeners: Record<string, (e: DragEvent) => void> = {};
  const sent: [string, string[]][] = [];
  const paths = new Map<object, string>();
  listenForDroppedFiles({ addEventListener: (t, l) => (listeners[t] = l) }, (f) => paths.get(f) ?? '', (c, p) => sent.push([c, p]));
  const event = (files: object[], types = ['Files']) => {
    let prevented = false;
    const e = { dataTransfer: { types, files }, preventDefault: () => (prevented = true) } as unknown as DragEvent;
    return { e, prevented: () => prevented };
  };
  return { listeners, sent, paths, event };
}

describe('listenForDroppedFiles', () => {
  it('sends the paths of real dropped files and drops files the page made itself', () => {
    const { listeners, sent, paths, event } = setup();
    const real = {};
    const made = {};
    paths.set(real, '/home/u/take.wav');
    const over = event([real]);
    listeners.dragover!(over.e);
    expect(over.prevented()).toBe(true);
    const drop = event([real, made]);
    listeners.drop!(drop.e);
    expect(drop.prevented()).toBe(true);
    expect(sent).toEqual([[DESKTOP_DROP_MESSAGE, ['/home/u/take.wav']]]);
  });

  it('ignores drags without files and caps the number of files', () => {
    const { listeners, sent, paths, event } = setup();
    const text = event([], ['text/plain']);
    listeners.drop!(text.e);
    expect(text.prevented()).toBe(false);
    const many = Array.from({ length: MAX_DROPPED_FILES + 5 }, (_, i) => {
      const f = {};
      paths.set(f, `/f/${i}.txt`);
      return f;
    });
    listeners.drop!(event(many).e);
    expect(sent[0]![1]).toHaveLength(MAX_DROPPED_FILES);
  });
});
