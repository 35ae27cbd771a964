// @vitest-environment jsdom
// The one number field, typed key by key the way a user types: lists, clearing, decimals, negative
// numbers, leading zeros, ranges from the shared sampling table, stepping with the arrow keys.
import { describe, expect, it } from 'vitest';
import { useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { NumberField } from './NumberField';
import { readNumberListText, readNumberText } from './number-text';
import { SAMPLING_PARAM_LIMITS } from '../../src-shared/sampling-limits';
import { resetBetweenTests } from '../testing/reset-between-tests';
import { clearField, typeKeys } from '../testing/type-keys';

resetBetweenTests();

/** A field with its value held the way a panel holds it, and every reported value recorded. */
function Single(props: { initial: number | null; allowEmpty?: boolean; min?: number; max?: number; integer?: boolean; range?: typeof SAMPLING_PARAM_LIMITS.temperature; reported: (number | null)[] }) {
  const [value, setValue] = useState(props.initial);
  return (
    <>
      <NumberField aria-label="n" value={value} allowEmpty={props.allowEmpty} min={props.min} max={props.max} integer={props.integer} range={props.range} step={0.05} onValue={(v) => { props.reported.push(v); setValue(v); }} />
      <output data-testid="held">{String(value)}</output>
    </>
  );
}

function List(props: { initial: number[]; reported: number[][] }) {
  const [value, setValue] = useState(props.initial);
  return <NumberField list aria-label="counts" value={value} min={1} max={512} integer onValue={(v) => { props.reported.push(v); setValue(v); }} />;
}

const field = () => screen.getByLabelText(/^(n|counts)$/) as HTMLInputElement;
const held = () => screen.getByTestId('held').textContent;

describe('NumberField', () => {
  it('reads "1, 2, 4" typed key by key as the list 1, 2, 4, not 124', () => {
    const reported: number[][] = [];
    render(<List initial={[2]} reported={reported} />);
    clearField(field());
    typeKeys(field(), '1, 2, 4');
    expect(field().value).toBe('1, 2, 4');
    expect(reported[reported.length - 1]).toEqual([1, 2, 4]);
    expect(reported.some((r) => r.includes(124) || r.includes(12))).toBe(false);
    fireEvent.blur(field());
    expect(field().value).toBe('1, 2, 4');
  });

  it('reports nothing for a list entry out of range and says why', () => {
    const reported: number[][] = [];
    render(<List initial={[2]} reported={reported} />);
    clearField(field());
    typeKeys(field(), '1, 0');
    expect(reported[reported.length - 1]).toEqual([1]);
    expect(field().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('status').textContent).toMatch(/whole number from 1 to 512/);
    fireEvent.blur(field());
    expect(field().value).toBe('1');
  });

  it('keeps an emptied field empty while typing and goes back to the held value on leaving, never 0', () => {
    const reported: (number | null)[] = [];
    render(<Single initial={0.9} range={SAMPLING_PARAM_LIMITS.temperature} reported={reported} />);
    clearField(field());
    expect(field().value).toBe('');
    expect(reported).toEqual([]);
    fireEvent.blur(field());
    expect(field().value).toBe('0.9');
    expect(held()).toBe('0.9');
  });

  it('types 0.7 into a cleared field as 0.7, not 00.7', () => {
    const reported: (number | null)[] = [];
    render(<Single initial={0.9} range={SAMPLING_PARAM_LIMITS.temperature} reported={reported} />);
    clearField(field());
    typeKeys(field(), '0.7');
    expect(field().value).toBe('0.7');
    expect(held()).toBe('0.7');
    // "0" and "0." are below the 0.01 minimum on the way, so only 0.7 is reported
    expect(reported).toEqual([0.7]);
  });

  it('takes negative numbers through the lone "-"', () => {
    const reported: (number | null)[] = [];
    render(<Single initial={0} min={-60} max={24} reported={reported} />);
    clearField(field());
    typeKeys(field(), '-6.5');
    expect(field().value).toBe('-6.5');
    expect(reported).toEqual([-6, -6, -6.5]);
    expect(held()).toBe('-6.5');
  });

  it('shows a seed typed as 042 as 42 once settled', () => {
    const reported: (number | null)[] = [];
    render(<Single initial={7} min={0} max={2 ** 32 - 1} integer reported={reported} />);
    clearField(field());
    typeKeys(field(), '042');
    expect(held()).toBe('42');
    fireEvent.keyDown(field(), { key: 'Enter' });
    expect(field().value).toBe('42');
  });

  it('moves a number out of range to the nearest valid one on leaving, with the shared bounds', () => {
    const reported: (number | null)[] = [];
    render(<Single initial={0.9} range={SAMPLING_PARAM_LIMITS.temperature} reported={reported} />);
    clearField(field());
    typeKeys(field(), '12');
    expect(field().getAttribute('aria-invalid')).toBe('true');
    fireEvent.blur(field());
    expect(held()).toBe(String(SAMPLING_PARAM_LIMITS.temperature.max));
    expect(field().getAttribute('aria-invalid')).toBeNull();
  });

  it('reports null for an emptied field only where empty means auto', () => {
    const reported: (number | null)[] = [];
    render(<Single initial={120} allowEmpty min={0} reported={reported} />);
    clearField(field());
    expect(reported).toEqual([null]);
    expect(held()).toBe('null');
  });

  it('steps with the arrow keys without float noise', () => {
    const reported: (number | null)[] = [];
    render(<Single initial={0.9} range={SAMPLING_PARAM_LIMITS.temperature} reported={reported} />);
    fireEvent.keyDown(field(), { key: 'ArrowDown' });
    expect(field().value).toBe('0.85');
    fireEvent.keyDown(field(), { key: 'ArrowUp' });
    fireEvent.keyDown(field(), { key: 'ArrowUp' });
    expect(held()).toBe('0.95');
  });

  it('drops a draft when the value is set from elsewhere', () => {
    function WithDice() {
      const [value, setValue] = useState<number | null>(5);
      return (
        <>
          <NumberField aria-label="n" value={value} onValue={setValue} />
          <button onClick={() => setValue(99)}>dice</button>
        </>
      );
    }
    render(<WithDice />);
    clearField(field());
    fireEvent.click(screen.getByText('dice'));
    expect(field().value).toBe('99');
  });
});

describe('readNumberText', () => {
  it('tells partial text from a number and from text that is out of range', () => {
    expect(readNumberText('-')).toEqual({ kind: 'partial' });
    expect(readNumberText('.')).toEqual({ kind: 'partial' });
    expect(readNumberText('0.')).toEqual({ kind: 'number', value: 0 });
    expect(readNumberText('1.5', { integer: true })).toMatchObject({ kind: 'invalid', nearest: 2 });
    expect(readNumberText('abc')).toMatchObject({ kind: 'invalid', nearest: null });
    expect(readNumberText('0', SAMPLING_PARAM_LIMITS.topP)).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/above 0 up to 1/) });
  });

  it('reads lists separated by commas or spaces, with a trailing separator still typing', () => {
    expect(readNumberListText('1, 2,', { integer: true })).toEqual({ kind: 'numbers', values: [1, 2] });
    expect(readNumberListText('1 2 4')).toEqual({ kind: 'numbers', values: [1, 2, 4] });
    expect(readNumberListText('1, -')).toEqual({ kind: 'partial' });
    expect(readNumberListText('1, 2, 3', {}, 2)).toMatchObject({ kind: 'invalid' });
  });
});
