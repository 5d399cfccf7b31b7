// A list screen's table: its columns declared once (header, cell, optional className), the rows of
// the current page, the states around them (loading, error, empty) and the pager. While the next
// page loads the current one stays on screen, marked busy, with a "Loading page N" hint.
import type { ReactNode } from 'react';
import { Empty, ErrorNotice, Loading } from '../states';
import type { ListState } from './useListQuery';

export interface Column<T> {
  header: ReactNode;
  cell: (row: T) => ReactNode;
  className?: string;
  /** The cell names its row (a <th scope="row">): the row is found by it. */
  rowHeader?: boolean;
  /** The cell's label when rows stack on a phone; the header's text when it is a string. */
  label?: string;
}

/** What a stacked cell is labelled with on a phone: the label given, else a header that is text. */
const labelOf = <T,>(c: Column<T>): string | undefined => c.label ?? (typeof c.header === 'string' ? c.header : undefined);

/**
 * How a row is told apart from the others (React's key): its `id` unless the rows have none, when
 * the caller says (a work item's key, a feature's name).
 */
export type RowKey<T> = [T] extends [{ id: string }] ? { rowKey?: (row: T) => string } : { rowKey: (row: T) => string };

/** The rowKey given, or the row's id (RowKey<T> lets a caller leave it out only when rows have one). */
function keyOf<T>(props: RowKey<T>): (row: T) => string {
  const given = props.rowKey;
  return given ?? ((row: T) => (row as { id: string }).id);
}

export function ListTable<T>(props: {
  list: Pick<ListState<T>, 'q' | 'pager'>;
  columns: Column<T>[];
  /** Said to screen readers (visually hidden): what the table lists, in which order. */
  caption: string;
  /** Shown when the first page is empty (later pages say "No more."). */
  empty: ReactNode;
  /** Names the pager: "Runs" → "Runs pages". */
  label: string;
} & RowKey<T>) {
  const { list, columns, caption, empty, label } = props;
  const { q, pager } = list;
  if (q.isPending) return <Loading />;
  if (q.error && !q.data) return <ErrorNotice error={q.error} />;
  const page = q.data;
  if (page.data.length === 0 && pager.page === 1) return <Empty>{empty}</Empty>;
  return (
    <>
      <ErrorNotice error={q.error} />
      {page.data.length === 0 ? (
        <Empty>No more.</Empty>
      ) : (
        <Rows columns={columns} rows={page.data} caption={caption} rowKey={keyOf(props)} busy={pager.loadingPage} />
      )}
      <ListPager pager={pager} nextCursor={page.next_cursor} label={label} />
    </>
  );
}

/** A table of a fixed set of rows (no pager, no states): a record's newest runs, a small list. */
export function Table<T>(props: { columns: Column<T>[]; rows: readonly T[]; caption: string } & RowKey<T>) {
  return <Rows columns={props.columns} rows={props.rows} caption={props.caption} rowKey={keyOf(props)} />;
}

function Rows<T>({ columns, rows, caption, rowKey, busy = false }: { columns: Column<T>[]; rows: readonly T[]; caption: string; rowKey: (row: T) => string; busy?: boolean }) {
  // Wide: the table scrolls sideways inside its own box, so the page never grows wider than the
  // screen (the box takes focus, so a keyboard can scroll it too). A phone: each row stacks into a
  // card of "label value" lines (styles.css, .table-stack), labelled from data-label. The explicit
  // roles keep the table's semantics for screen readers once CSS changes the cells' display.
  return (
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table role="table" aria-busy={busy || undefined} className={busy ? 'table-stack list-loading' : 'table-stack'}>
        <caption className="visually-hidden">{caption}</caption>
        <thead role="rowgroup">
          <tr role="row">
            {columns.map((c, i) => (
              <th key={i} role="columnheader" scope="col" className={c.className}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {rows.map((row) => (
            <tr key={rowKey(row)} role="row">
              {columns.map((c, i) =>
                c.rowHeader ? (
                  <th key={i} role="rowheader" scope="row" className={c.className}>
                    {c.cell(row)}
                  </th>
                ) : (
                  <td key={i} role="cell" className={c.className} data-label={labelOf(c)}>
                    {c.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ListPager({ pager, nextCursor, label }: { pager: ListState<unknown>['pager']; nextCursor: string | null; label: string }) {
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" className="button-secondary" disabled={pager.page === 1 || pager.loadingPage} onClick={pager.previous}>
        Previous page
      </button>
      <span>Page {pager.page}</span>
      <button type="button" className="button-secondary" disabled={!nextCursor || pager.loadingPage} onClick={() => nextCursor && pager.next(nextCursor)}>
        Next page
      </button>
      <span role="status" aria-live="polite" className="muted">
        {pager.loadingPage ? 'Loading the page…' : ''}
      </span>
    </nav>
  );
}
