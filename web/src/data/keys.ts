// The hub's data kit: every read and write of /hub/api goes through web/src/data/<resource>.ts.
//
// The pattern, one per resource (runs.ts and workflows.ts are the examples to copy):
// - Keys: `export const runKeys = resourceKeys('runs')` → all / lists() / list(filters) /
//   details() / detail(id). Every key of a resource starts with its name, so invalidating
//   `runKeys.all` reaches everything about runs; add a key to the object only in that style.
// - Reads: `runListQuery(filters, cursor)` and `runQuery(id)` return `queryOptions(...)`; a page
//   calls `useQuery(runQuery(id))` or hands the list one to `useListQuery` — never an inline key.
// - Writes: a hook per mutation (`useRunMove(run)`) that declares its own invalidations, so a
//   page never lists what to refresh.
// - Types: the server's TypeBox schemas through `@server/...` as `import type` only (nothing of
//   typebox reaches the bundle): `type RunInList = Static<typeof HubRunInList>`. A shape the
//   server does not export from a schemas module yet is a local type marked TODO(issue 24).
import type { Static, TUnknown } from '@sinclair/typebox';
import type { ListEnvelope } from '@server/http/schemas';

/** One page of a hub list: the server's ListEnvelope (data, has_more, next_cursor), items typed. */
export type Page<T> = Omit<Static<ReturnType<typeof ListEnvelope<TUnknown>>>, 'data'> & { data: T[] };

/** The filters of a list as they stand in the URL: name → value, '' = not set. */
export type Filters = Record<string, string>;

/** The one key factory style: `['runs']`, `['runs', 'list', filters, cursor]`, `['runs', 'detail', id]`. */
export function resourceKeys<const R extends string>(resource: R) {
  const all = [resource] as const;
  return {
    all,
    lists: () => [...all, 'list'] as const,
    list: (filters: Filters, cursor?: string) => [...all, 'list', filters, cursor ?? null] as const,
    details: () => [...all, 'detail'] as const,
    detail: (id: string) => [...all, 'detail', id] as const,
  };
}
