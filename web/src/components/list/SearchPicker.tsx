// A picker over a server list (a workflow, a project, a contact): a <select> of one page of it,
// and — where the endpoint takes a search (`searchable`) — a search box that asks the server
// again as the user types. It always says when the list has more than it shows, so a choice that
// is not on the first page is never silently missing.
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect, useId, useState, type ReactNode } from 'react';
import type { Page } from '../../data/keys';

/** D: one page of the list (it may carry more, as a project's items carry the project). */
export function SearchPicker<D extends Page<unknown>, K extends QueryKey>({
  label,
  value,
  onChange,
  query,
  option,
  none,
  searchable = false,
  searchOnlyWhenMore = false,
  searchLabel,
  current,
  disabled = false,
  hint,
  empty,
  error,
}: {
  label: string;
  value: string;
  /** The id chosen, with its row when it is on the page shown ('' and a kept choice have none). */
  onChange: (id: string, row?: D['data'][number]) => void;
  /** The data kit's read for one page, given the search text ('' = none). */
  query: (search: string) => UseQueryOptions<D, Error, D, K>;
  /** A row as [id, the words shown]. */
  option: (row: D['data'][number]) => readonly [string, string];
  /** The choice for "no value" ("All workflows"); none = a value is required. */
  none?: string;
  /** The endpoint takes a search parameter: show a search box. */
  searchable?: boolean;
  /** Where room is short (the builder): the search box appears only once the list has more than it shows. */
  searchOnlyWhenMore?: boolean;
  /** The search box's label (default "Search <label>"); words that do not repeat another label on the screen. */
  searchLabel?: string;
  /** The words for a chosen id that is not on the page shown ("This workflow"). */
  current?: string;
  /** Nothing to choose from yet (a picker that depends on another choice). */
  disabled?: boolean;
  /** A note under the select, always shown. */
  hint?: ReactNode;
  /** Said when the list is empty and no search is typed ("No project yet: create one…"). */
  empty?: ReactNode;
  /** The form's complaint about the value chosen. */
  error?: string;
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
  const showSearch = searchable && (!searchOnlyWhenMore || typed !== '' || search !== '' || q.data?.has_more === true);
  const nothing = empty !== undefined && q.isSuccess && rows.length === 0 && search === '';
  const described = [hint && `${id}-hint`, note && `${id}-more`, nothing && `${id}-none`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      {showSearch && (
        <>
          <label htmlFor={`${id}-search`}>{searchLabel ?? `Search ${label.toLowerCase()}`}</label>
          <input id={`${id}-search`} type="search" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" disabled={disabled} />
        </>
      )}
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value, rows.find((r) => option(r)[0] === e.target.value))}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        aria-busy={q.isFetching || undefined}
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      {note && (
        <small id={`${id}-more`} className="hint">
          {note}
        </small>
      )}
      {nothing && (
        <small id={`${id}-none`} className="hint">
          {empty}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}
