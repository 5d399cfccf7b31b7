// The hub's list kit without a browser: the data kit's key factory (one style, every key of a
// resource under its name, so invalidating `xKeys.all` reaches all of it), the keys the list reads
// ask with, the filters read from and written to the URL, and the cursor stack that pages a list
// (Next and Previous retrace exactly; another set of filters starts at page 1).
import { describe, expect, it } from 'vitest';
import { resourceKeys } from '../../web/src/data/keys';
import { contactKeys, contactListQuery, contactQuery } from '../../web/src/data/contacts';
import { messageListQuery } from '../../web/src/data/messages';
import { auditListQuery } from '../../web/src/data/audit';
import { apiKeyKeys, apiKeyListQuery, keyScopesQuery } from '../../web/src/data/api-keys';
import {
  cursorOf,
  filterKeyOf,
  firstPage,
  isAnotherPage,
  isFiltered,
  nextPage,
  previousPage,
  readFilters,
  stackFor,
  withFilter,
  withoutFilters,
  type CursorStack,
} from '../../web/src/components/list/list-state';

/** Does `key` start with `prefix` (what invalidateQueries matches on)? */
const under = (key: readonly unknown[], prefix: readonly unknown[]) => prefix.every((p, i) => JSON.stringify(key[i]) === JSON.stringify(p));

describe('the key factory', () => {
  const k = resourceKeys('runs');

  it('writes every key in one style, starting with the resource', () => {
    expect(k.all).toEqual(['runs']);
    expect(k.lists()).toEqual(['runs', 'list']);
    expect(k.list({ status: 'failed' }, 'c2')).toEqual(['runs', 'list', { status: 'failed' }, 'c2']);
    expect(k.details()).toEqual(['runs', 'detail']);
    expect(k.detail('r1')).toEqual(['runs', 'detail', 'r1']);
  });

  it('writes the first page with a null cursor, so "no cursor" is one key', () => {
    expect(k.list({})).toEqual(['runs', 'list', {}, null]);
    expect(k.list({}, undefined)).toEqual(k.list({}));
  });

  it('puts lists under lists() and details under details(), all under all', () => {
    const list = k.list({ status: 'failed' }, 'c2');
    const detail = k.detail('r1');
    expect(under(list, k.lists())).toBe(true);
    expect(under(detail, k.details())).toBe(true);
    expect(under(list, k.details())).toBe(false);
    expect(under(detail, k.lists())).toBe(false);
    for (const key of [list, detail, k.lists(), k.details()]) expect(under(key, k.all)).toBe(true);
    expect(under(list, resourceKeys('run').all)).toBe(false);
  });
});

describe('the data kit asks with the factory\'s keys', () => {
  it('contacts: a list page by filters and cursor, one contact by id', () => {
    expect(contactListQuery({ q: 'ann', lifecycle_stage: '' }, 'c1').queryKey).toEqual(['contacts', 'list', { q: 'ann', lifecycle_stage: '' }, 'c1']);
    expect(contactQuery('x').queryKey).toEqual(contactKeys.detail('x'));
  });

  it('messages and the audit log: their own names, so one never refreshes the other', () => {
    expect(messageListQuery({ status: 'failed' }).queryKey).toEqual(['messages', 'list', { status: 'failed' }, null]);
    expect(auditListQuery({ action: '' }).queryKey).toEqual(['audit', 'list', { action: '' }, null]);
  });

  it('API keys: the list and the scopes both under keys, the scopes outside its lists', () => {
    expect(under(apiKeyListQuery().queryKey, apiKeyKeys.lists())).toBe(true);
    expect(under(keyScopesQuery().queryKey, apiKeyKeys.all)).toBe(true);
    expect(under(keyScopesQuery().queryKey, apiKeyKeys.lists())).toBe(false);
  });
});

describe('filters in the URL', () => {
  const params = new URLSearchParams('status=failed&tab=2&trigger=');

  it('reads each named filter, absent or empty as ""; other params are not filters', () => {
    expect(readFilters(['status', 'trigger', 'workflow_id'], params)).toEqual({ status: 'failed', trigger: '', workflow_id: '' });
  });

  it('sets a filter and keeps the other params, without touching the params it was given', () => {
    const next = withFilter(params, 'workflow_id', 'w1');
    expect(next.get('workflow_id')).toBe('w1');
    expect(next.get('status')).toBe('failed');
    expect(next.get('tab')).toBe('2');
    expect(params.has('workflow_id')).toBe(false);
  });

  it('removes a filter set to "" (the URL never carries an empty one)', () => {
    const next = withFilter(params, 'status', '');
    expect(next.has('status')).toBe(false);
    expect(next.toString()).toBe('tab=2&trigger=');
  });

  it('clears the list\'s filters only', () => {
    expect(withoutFilters(params, ['status', 'trigger']).toString()).toBe('tab=2');
    expect(params.get('status')).toBe('failed');
  });

  it('says whether some filter is set', () => {
    expect(isFiltered({ status: '', trigger: '' })).toBe(false);
    expect(isFiltered({ status: '', trigger: 'manual' })).toBe(true);
  });

  it('round-trips: what is written is what is read back', () => {
    let p = new URLSearchParams();
    p = withFilter(p, 'q', 'ann lee');
    p = withFilter(p, 'lifecycle_stage', 'lead');
    expect(readFilters(['q', 'lifecycle_stage'], new URLSearchParams(p.toString()))).toEqual({ q: 'ann lee', lifecycle_stage: 'lead' });
  });
});

/** The hook's paging, without React: state as useListQuery keeps it, moves as its pager makes them. */
function pager(filters: Record<string, string>) {
  let key = filterKeyOf(filters);
  let pages: CursorStack = firstPage(key);
  const stack = () => stackFor(pages, key);
  return {
    cursor: () => cursorOf(stack()),
    page: () => stack().length,
    next: (c: string) => (pages = nextPage(key, stack(), c)),
    previous: () => (pages = previousPage(key, stack())),
    filter: (f: Record<string, string>) => (key = filterKeyOf(f)),
  };
}

describe('the cursor stack', () => {
  it('starts at page 1 with no cursor', () => {
    const p = pager({ status: '' });
    expect(p.page()).toBe(1);
    expect(p.cursor()).toBeUndefined();
  });

  it('goes forward with each answer\'s cursor and back exactly the same way', () => {
    const p = pager({ status: '' });
    p.next('c1');
    p.next('c2');
    expect([p.page(), p.cursor()]).toEqual([3, 'c2']);
    p.previous();
    expect([p.page(), p.cursor()]).toEqual([2, 'c1']);
    p.next('c2b');
    expect([p.page(), p.cursor()]).toEqual([3, 'c2b']);
    p.previous();
    p.previous();
    expect([p.page(), p.cursor()]).toEqual([1, undefined]);
  });

  it('stays on page 1 when asked to go before it', () => {
    const p = pager({});
    p.previous();
    expect([p.page(), p.cursor()]).toEqual([1, undefined]);
  });

  it('starts again at page 1 when the filters change, and pages on from there', () => {
    const p = pager({ status: '' });
    p.next('c1');
    p.next('c2');
    p.filter({ status: 'failed' });
    expect([p.page(), p.cursor()]).toEqual([1, undefined]);
    p.next('f1');
    expect([p.page(), p.cursor()]).toEqual([2, 'f1']);
    p.previous();
    expect([p.page(), p.cursor()]).toEqual([1, undefined]);
  });

  it('never changes a stack it was given (React state stays as it was)', () => {
    const start = firstPage('k');
    const after = nextPage('k', start.stack, 'c1');
    expect(start.stack).toEqual([undefined]);
    previousPage('k', after.stack);
    expect(after.stack).toEqual([undefined, 'c1']);
  });

  it('ties a stack to its filters by value, not by object', () => {
    expect(filterKeyOf({ status: 'a', trigger: '' })).toBe(filterKeyOf({ status: 'a', trigger: '' }));
    expect(filterKeyOf({ status: 'a', trigger: '' })).not.toBe(filterKeyOf({ status: 'b', trigger: '' }));
  });
});

describe('what stays on screen while a list loads', () => {
  const runs = resourceKeys('runs');
  const items = resourceKeys('items');
  it('keeps the page shown when only the cursor moves (next or previous page)', () => {
    expect(isAnotherPage(runs.list({ status: 'failed' }), runs.list({ status: 'failed' }, 'c2'))).toBe(true);
    expect(isAnotherPage(runs.list({}, 'c2'), runs.list({}, 'c3'))).toBe(true);
    expect(isAnotherPage(runs.list({}, 'c2'), runs.list({}))).toBe(true);
  });
  it('shows loading for other filters or another record, never their rows', () => {
    expect(isAnotherPage(runs.list({ status: 'failed' }), runs.list({ status: 'succeeded' }))).toBe(false);
    expect(isAnotherPage(items.list({ project: 'p1' }, 'c2'), items.list({ project: 'p2' }, 'c2'))).toBe(false);
    expect(isAnotherPage(runs.list({}), items.list({}))).toBe(false);
    expect(isAnotherPage(runs.detail('r1'), runs.list({}))).toBe(false);
  });
});
