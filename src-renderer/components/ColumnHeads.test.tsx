// @vitest-environment jsdom
// A table's header row: every column a column header (scope="col") that names its cells, a title
// where one is given, and a column named only to screen readers.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { ColumnHeads } from './ColumnHeads';

describe('ColumnHeads', () => {
  afterEach(cleanup);

  it('makes each column a named column header, with its title and screen-reader-only names', () => {
    render(
      <table>
        <ColumnHeads columns={['Clip', { label: 'RTF', title: 'real-time factor' }, { srOnly: 'Actions' }]} />
        <tbody>
          <tr>
            <td>a</td>
            <td>b</td>
            <td>c</td>
          </tr>
        </tbody>
      </table>,
    );
    const heads = screen.getAllByRole('columnheader');
    expect(heads.map((th) => [th.textContent, th.getAttribute('scope'), th.getAttribute('title')])).toEqual([
      ['Clip', 'col', null],
      ['RTF', 'col', 'real-time factor'],
      ['Actions', 'col', null],
    ]);
    expect(heads[2].querySelector('.sr-only')?.textContent).toBe('Actions');
  });
});
