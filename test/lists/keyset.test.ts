// The store-side keyset clause: the statement text each list sends depends only on which filters
// are in force and whether a cursor is given (PostgresDb prepares by text), and is the text the
// hand-written lists sent before the clause was shared.
import { describe, expect, it } from 'vitest';
import { KeysetOrder, ListSql, type KeysetPage } from '../../src/db/keyset.js';

const ORDER = new KeysetOrder('w.updated_at', 'w.id', 'desc');
const first: KeysetPage = { after: null, fetch: 26 };
const later: KeysetPage = { after: { sort: new Date('2026-03-01T00:00:00.000Z'), id: 'b' }, fetch: 26 };

function workflows(filters: { status?: string; projectId?: string }, page: KeysetPage): { text: string; params: unknown[] } {
  const w = new ListSql(['acc'], ['w.account_id = $1']).eq('w.status', filters.status).eq('w.project_id', filters.projectId).after(ORDER, page);
  return { text: `where ${w.sql} ${w.tail(ORDER, page)}`, params: w.params };
}

describe('keyset clause', () => {
  it('writes the (sort, id) < ($n, $m) condition after the filters, then ORDER BY and LIMIT', () => {
    expect(workflows({}, first)).toEqual({ text: 'where w.account_id = $1 order by w.updated_at desc, w.id desc limit $2', params: ['acc', 26] });
    expect(workflows({ status: 'active' }, later)).toEqual({
      text: 'where w.account_id = $1 and w.status = $2 and (w.updated_at, w.id) < ($3, $4) order by w.updated_at desc, w.id desc limit $5',
      params: ['acc', 'active', later.after!.sort, 'b', 26],
    });
  });

  it('gives one text per combination of filters, whatever their values', () => {
    expect(workflows({ projectId: 'p1' }, later).text).toBe(workflows({ projectId: 'p2' }, { ...later, fetch: 3 }).text);
    expect(workflows({ projectId: 'p1' }, later).text).not.toBe(workflows({ status: 'p1' }, later).text);
  });

  it('pages an ascending unique key without an id', () => {
    const order = new KeysetOrder('i.number', null, 'asc');
    const w = new ListSql(['acc', 'proj'], ['i.account_id = $1', 'i.project_id = $2']).after(order, { after: { sort: 7, id: null }, fetch: 11 });
    expect(`${w.sql} ${w.tail(order, { after: null, fetch: 11 })}`).toBe(
      'i.account_id = $1 and i.project_id = $2 and i.number > $3 order by i.number limit $4',
    );
    expect(w.params).toEqual(['acc', 'proj', 7, 11]);
  });
});
