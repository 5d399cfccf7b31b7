// A list screen's state in one hook: its filters (read from and written to the URL search params,
// so a filtered list can be bookmarked and survives a reload), the cursor pager (a stack of the
// cursors that led to each page, so Previous goes back exactly; a filter change starts again at
// page 1) and the query, which keeps the previous page on screen while the next one loads.
//
//   const list = useListQuery({ filters: ['status', 'trigger'], query: runListQuery });
//   <select value={list.filters.status} onChange={(e) => list.setFilter('status', e.target.value)} />
//   <ListTable list={list} columns={…} caption="Runs, newest first" empty="No runs match." />
import { keepPreviousData, useQuery, type UseQueryOptions, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Page } from '../../data/keys';

export interface ListQueryConfig<T, F extends string, K extends QueryKey, D extends Page<T> = Page<T>> {
  /** The URL search params this list reads as filters ('' when absent). */
  filters: readonly F[];
  /** The data kit's list read: (filters, cursor) => queryOptions(...); a page may carry more (D: a project's items come with the project). */
  query: (filters: Record<F, string>, cursor?: string) => UseQueryOptions<D, Error, D, K>;
}

export function useListQuery<T, F extends string = never, K extends QueryKey = QueryKey, D extends Page<T> = Page<T>>({ filters: names, query }: ListQueryConfig<T, F, K, D>) {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(names.map((n) => [n, params.get(n) ?? ''])) as Record<F, string>;
  // The cursor stack belongs to one set of filters: another set starts at page 1.
  const filterKey = JSON.stringify(filters);
  const [pages, setPages] = useState<{ filterKey: string; stack: (string | undefined)[] }>({ filterKey, stack: [undefined] });
  const stack = pages.filterKey === filterKey ? pages.stack : [undefined];
  const cursor = stack[stack.length - 1];
  const q = useQuery({ ...query(filters, cursor), placeholderData: keepPreviousData });

  const setFilter = (name: F, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next);
  };
  const clearFilters = () => {
    const next = new URLSearchParams(params);
    for (const n of names) next.delete(n);
    setParams(next);
  };
  return {
    q,
    filters,
    /** Some filter is set (show "Clear filters"). */
    filtered: names.some((n) => filters[n] !== ''),
    setFilter,
    clearFilters,
    pager: {
      page: stack.length,
      /** The next page is on its way and the previous one is still on screen. */
      loadingPage: q.isPlaceholderData,
      next: (c: string) => setPages({ filterKey, stack: [...stack, c] }),
      previous: () => setPages({ filterKey, stack: stack.length > 1 ? stack.slice(0, -1) : stack }),
    },
  };
}

export type ListState<T> = ReturnType<typeof useListQuery<T, string, QueryKey>>;
