/**
 * A table's header row: one <th scope="col"> per column, so a screen reader names each cell by its
 * column. A column is its label; `{ label, title }` adds a hover explanation, and `{ srOnly }` names
 * a column only to screen readers (a row's action buttons). Presentational, store-agnostic.
 */

export type ColumnHead = string | { label: string; title: string } | { srOnly: string };

export function ColumnHeads({ columns }: { columns: readonly ColumnHead[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c, i) =>
          typeof c === 'string' ? (
            <th key={i} scope="col">
              {c}
            </th>
          ) : 'srOnly' in c ? (
            <th key={i} scope="col">
              <span className="sr-only">{c.srOnly}</span>
            </th>
          ) : (
            <th key={i} scope="col" title={c.title}>
              {c.label}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}
