// The one emitter: listeners in subscription order with every argument, unsubscribe and dispose,
// and a throwing listener that neither stops the others nor throws to the code that fired.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Emitter } from './emitter';

afterEach(() => vi.restoreAllMocks());

describe('Emitter', () => {
  it('calls every listener in subscription order with all arguments', () => {
    const emitter = new Emitter<[event: string, payload: number]>();
    const calls: string[] = [];
    emitter.event((e, p) => calls.push(`a:${e}:${p}`));
    emitter.event((e, p) => calls.push(`b:${e}:${p}`));
    emitter.fire('x', 1);
    expect(calls).toEqual(['a:x:1', 'b:x:1']);
  });

  it('stops calling a listener once unsubscribed, and every listener once disposed', () => {
    const emitter = new Emitter<[number]>();
    const seen: number[] = [];
    const off = emitter.event((v) => seen.push(v));
    const other: number[] = [];
    emitter.event((v) => other.push(v));
    emitter.fire(1);
    off();
    emitter.fire(2);
    emitter.dispose();
    emitter.fire(3);
    expect(seen).toEqual([1]);
    expect(other).toEqual([1, 2]);
  });

  it('logs a throwing listener and still calls the others; fire itself does not throw', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const emitter = new Emitter<[string]>();
    const seen: string[] = [];
    emitter.event(() => {
      throw new Error('listener bug');
    });
    emitter.event((v) => seen.push(v));
    expect(() => emitter.fire('after')).not.toThrow();
    expect(seen).toEqual(['after']);
    expect(logged).toHaveBeenCalledTimes(1);
  });

  it('lets a listener unsubscribe itself while firing without skipping the next one', () => {
    const emitter = new Emitter<[]>();
    const calls: string[] = [];
    const off = emitter.event(() => {
      calls.push('once');
      off();
    });
    emitter.event(() => calls.push('always'));
    emitter.fire();
    emitter.fire();
    expect(calls).toEqual(['once', 'always', 'always']);
  });
});
