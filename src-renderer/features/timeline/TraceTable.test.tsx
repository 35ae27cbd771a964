// @vitest-environment jsdom
// The trace lists a turn's parts (tuned words, a break inside it) as rows of that one turn: 2.1,
// 2.2…; a turn made in one part keeps its plain number.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { ProcessingTrace, TurnTrace } from '../../../src-shared/synthesis';
import { resetStore } from '../../store/store';
import { TraceTable } from './TraceTable';

const part = (turnIndex: number, partIndex: number, rate: number): TurnTrace => ({ turnIndex, partIndex, voice: 'ryan', language: 'english', rate, pitchSemitones: 0, gainDb: 0, durationMs: 500, breakBeforeMs: 0 });
const trace: ProcessingTrace = { turns: [part(0, 0, 1), part(1, 0, 1), part(1, 1, 1.2), part(1, 2, 1), part(2, 0, 1)], loudnessMeasuredLufs: -20, loudnessFinalLufs: -16, truePeakFinalDbtp: -1.5 };

beforeEach(() => resetStore());
afterEach(() => cleanup());

describe('TraceTable', () => {
  it('numbers a turn’s parts under that turn', () => {
    render(<TraceTable trace={trace} />);
    const rows = screen.getByTestId('trace').querySelectorAll('tbody tr');
    expect([...rows].map((r) => r.querySelector('td')?.textContent)).toEqual(['1', '2.1', '2.2', '2.3', '3']);
    expect(rows[2].textContent).toContain('×1.20');
  });
});
