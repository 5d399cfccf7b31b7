// A picker over a server list (a workflow, a project, a contact): a <select> of one page of it,
// and — where the endpoint takes a search (`searchable`) — a search box that asks the server
// again as the user types. It always says when the list has more than it shows, so a choice that
// is not on the first page is never silently missing.
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { Page } from '../../data/keys';

export function SearchPicker<T, K extends QueryKey>({
  label,
  value,
  onChange,
  query,
  option,
  none,
  searchable = false,
  current,
}: {
  label: string;
  value: string;
  /** The id chosen, with its row when it is on the page shown ('' and a kept choice have none). */
  onChange: (id: string, row?: T) => void;
  /** The data kit's read for one page, given the search text ('' = none). */
  query: (search: string) => UseQueryOptions<Page<T>, Error, Page<T>, K>;
  /** A row as [id, the words shown]. */
  option: (row: T) => readonly [string, string];
  /** The choice for "no value" ("All workflows"); none = a value is required. */
  none?: string;
  /** The endpoint takes a search parameter: show a search box. */
  searchable?: boolean;
  /** The words for a chosen id that is not on the page shown ("This workflow"). */
  current?: string;
}) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  // Ask the server once typing pauses, not on every key.
  useEffect(() => {
    const t = setTimeout(() => setSearch(typed.trim()), 250);
    return () => clearTimeout(t);
  }, [typed]);
  const q = useQuery({ ...query(search), staleTime: 60_000 });
  const rows = q.data?.data ?? [];
  const options: (readonly [string, string])[] = [...(none !== undefined ? [['', none] as const] : []), ...rows.map(option)];
  if (value && !options.some(([v]) => v === value)) options.push([value, current ?? value]);
  const more = q.data?.has_more
    ? searchable
      ? `Showing the first ${rows.length}; more exist: type to search.`
      : `Showing the first ${rows.length}; more exist that this list does not show.`
    : null;
  const note = q.error ? 'The choices could not be loaded.' : more;
  return (
    <div className="field">
      {searchable && (
        <>
          <label htmlFor={`${id}-search`}>Search {label.toLowerCase()}</label>
          <input id={`${id}-search`} type="search" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
        </>
      )}
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value, rows.find((r) => option(r)[0] === e.target.value))} aria-describedby={note ? `${id}-more` : undefined} aria-busy={q.isFetching || undefined}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
      {note && (
        <small id={`${id}-more`} className="hint">
          {note}
        </small>
      )}
    </div>
  );
}
