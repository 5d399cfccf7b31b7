// A list screen's state in one hook: its filters (read from and written to the URL search params,
// so a filtered list can be bookmarked and survives a reload), the cursor pager (a stack of the
// cursors that led to each page, so Previous goes back exactly; a filter change starts again at
// page 1) and the query, which keeps the previous page on screen while the next one loads.
//
//   const list = useListQuery({ filters: ['status', 'trigger'], query: runListQuery });
//   <select value={list.filters.status} onChange={(e) => list.setFilter('status', e.target.value)} />
//   <ListTable list={list} columns={…} caption="Runs, newest first" empty="No runs match." />
import { useQuery, type UseQueryOptions, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Page } from '../../data/keys';
import { cursorOf, filterKeyOf, firstPage, isAnotherPage, isFiltered, nextPage, previousPage, readFilters, stackFor, withFilter, withoutFilters, type CursorStack } from './list-state';

export interface ListQueryConfig<T, F extends string, K extends QueryKey, D extends Page<T> = Page<T>> {
  /** The URL search params this list reads as filters ('' when absent). */
  filters: readonly F[];
  /** The data kit's list read: (filters, cursor) => queryOptions(...); a page may carry more (D: a project's items come with the project). */
  query: (filters: Record<F, string>, cursor?: string) => UseQueryOptions<D, Error, D, K>;
}

export function useListQuery<T, F extends string = never, K extends QueryKey = QueryKey, D extends Page<T> = Page<T>>({ filters: names, query }: ListQueryConfig<T, F, K, D>) {
  const [params, setParams] = useSearchParams();
  const filters = readFilters(names, params);
  // The cursor stack belongs to one set of filters: another set starts at page 1.
  const filterKey = filterKeyOf(filters);
  const [pages, setPages] = useState<CursorStack>(() => firstPage(filterKey));
  // Forget the old set's pages as soon as the filters change (React's reset-on-render pattern),
  // so going back to the earlier filters starts at page 1 too, not at the page left there.
  if (pages.filterKey !== filterKey) setPages(firstPage(filterKey));
  const stack = stackFor(pages, filterKey);
  const cursor = cursorOf(stack);
  const options = query(filters, cursor);
  const q = useQuery({
    ...options,
    placeholderData: (shown, shownQuery) => (shownQuery && isAnotherPage(shownQuery.queryKey, options.queryKey) ? shown : undefined),
  });

  const setFilter = (name: F, value: string) => setParams(withFilter(params, name, value));
  const clearFilters = () => setParams(withoutFilters(params, names));
  return {
    q,
    filters,
    /** Some filter is set (show "Clear filters"). */
    filtered: isFiltered(filters),
    setFilter,
    clearFilters,
    pager: {
      page: stack.length,
      /** The next page is on its way and the previous one is still on screen. */
      loadingPage: q.isPlaceholderData,
      next: (c: string) => setPages(nextPage(filterKey, stack, c)),
      previous: () => setPages(previousPage(filterKey, stack)),
    },
  };
}

export type ListState<T> = ReturnType<typeof useListQuery<T, string, QueryKey>>;
