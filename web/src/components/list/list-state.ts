// The pure part of useListQuery (no React, no router), so it is tested without a browser
// (test/web/list-kit.test.ts): filters read from and written to URL search params, and the cursor
// stack that pages a list.

/** A list's filters as the URL has them: each name → its value, '' when absent. */
export function readFilters<F extends string>(names: readonly F[], params: URLSearchParams): Record<F, string> {
  return Object.fromEntries(names.map((n) => [n, params.get(n) ?? ''])) as Record<F, string>;
}

/** The params with one filter set ('' removes it); other params are kept. A new object. */
export function withFilter(params: URLSearchParams, name: string, value: string): URLSearchParams {
  const next = new URLSearchParams(params);
  if (value) next.set(name, value);
  else next.delete(name);
  return next;
}

/** The params without any of the list's filters; other params are kept. A new object. */
export function withoutFilters(params: URLSearchParams, names: readonly string[]): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const n of names) next.delete(n);
  return next;
}

/** Some filter is set. */
export const isFiltered = <F extends string>(filters: Record<F, string>): boolean => Object.values<string>(filters).some((v) => v !== '');

/**
 * The cursors that led to each page shown, for one set of filters: page 1 has none (undefined),
 * page n the cursor page n-1 answered. Previous pops exactly what Next pushed; another set of
 * filters starts again at page 1.
 */
export interface CursorStack {
  filterKey: string;
  stack: (string | undefined)[];
}

/** The key that ties a stack to one set of filters. */
export const filterKeyOf = (filters: Record<string, string>): string => JSON.stringify(filters);

export const firstPage = (filterKey: string): CursorStack => ({ filterKey, stack: [undefined] });

/** The stack as it stands for these filters: a stack kept for other filters counts as page 1. */
export const stackFor = (pages: CursorStack, filterKey: string): (string | undefined)[] => (pages.filterKey === filterKey ? pages.stack : [undefined]);

/** The cursor to ask the server with: the top of the stack. */
export const cursorOf = (stack: readonly (string | undefined)[]): string | undefined => stack[stack.length - 1];

export const nextPage = (filterKey: string, stack: readonly (string | undefined)[], cursor: string): CursorStack => ({ filterKey, stack: [...stack, cursor] });

/** One page back; page 1 stays page 1. */
export const previousPage = (filterKey: string, stack: readonly (string | undefined)[]): CursorStack => ({
  filterKey,
  stack: stack.length > 1 ? stack.slice(0, -1) : [...stack],
});

/**
 * Whether a list's next query is another page of the list on screen (every key part but the
 * cursor, which the data kit's list keys put last, is the same): only then does the page on screen
 * stay while the next loads. Other filters or another record (a different project's items) show
 * "Loading" instead of rows that do not belong to what is asked.
 */
export function isAnotherPage(shown: readonly unknown[], next: readonly unknown[]): boolean {
  return shown.length === next.length && JSON.stringify(shown.slice(0, -1)) === JSON.stringify(next.slice(0, -1));
}
