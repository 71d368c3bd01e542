// Tables that may be wider than a phone: each scrolls on its own, never the page. Keyboard users
// can scroll it too (it takes focus), and screen readers hear its name.
import { h } from 'preact';
import type { ComponentChildren } from 'preact';

export function TableWrap({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
    <section class="table-wrap" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}

/** A column heading; `hidden` ones are said to screen readers only (an actions column). */
export type Column = string | { hidden: string };

/**
 * A list table: its column headings, its rows, and `empty` in place of rows once loaded with none
 * (rows null: not loaded yet, nothing said).
 */
export function ListTable({ id, label, columns, rows, empty }: { id: string; label: string; columns: Column[]; rows: ComponentChildren[] | null; empty: string }) {
  return (
    <TableWrap label={label}>
      <table id={id}>
        <thead>
          <tr>
            {columns.map((c) =>
              typeof c === 'string' ? (
                <th key={c} scope="col">
                  {c}
                </th>
              ) : (
                <th key={c.hidden} scope="col">
                  <span class="visually-hidden">{c.hidden}</span>
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {rows}
          {rows?.length === 0 ? (
            <tr>
              <td colSpan={columns.length} class="empty">
                {empty}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </TableWrap>
  );
}
