// Plain slice setters: one setX per field, named after it, each replacing only its own field.
import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import { fieldSetters } from './field-setters';

interface Slice {
  area: string;
  errorMessage: string | null;
  numTurns: number;
  setArea(area: string): void;
  setErrorMessage(message: string | null): void;
}

describe('fieldSetters', () => {
  it('names each setter after its field and replaces only that field', () => {
    const store = create<Slice>()((set) => ({ area: 'speak', errorMessage: null, numTurns: 3, ...fieldSetters(set, ['area', 'errorMessage']) }));
    expect(Object.keys(fieldSetters<Slice, 'area' | 'errorMessage'>(() => {}, ['area', 'errorMessage']))).toEqual(['setArea', 'setErrorMessage']);
    store.getState().setErrorMessage('no model');
    store.getState().setArea('voice');
    expect(store.getState()).toMatchObject({ area: 'voice', errorMessage: 'no model', numTurns: 3 });
  });
});
