// Editing work items from the hub (issue 27, part 1): one history row per changed field (who and
// when, as /v1 reads it), 409 on a stale expected_updated_at with nothing written, soft delete by
// owners and admins (gone from /v1's lists, reads and sprint totals; history kept; the number never
// given again; a deleted epic's items leave it), and comments: any member adds, only the author
// edits or deletes. Another account's items and comments answer as unknown ones do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import type { HubClient } from '../helpers/hub.js';
import { bearer, expectError, seed } from '../http/fixtures.js';
import { workAccount, workClients } from './work-support.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let owner: HubClient;
let member: HubClient;
let sam: HubClient;
let other: HubClient;

const fixture = (ref: string) => workAccount(ref, {
  projects: [{ ref: 'site', name: 'Website', workmgmt_prefix: 'WEB' }],
  workmgmt: {
    site: {
      previous_prefixes: ['SITE'],
      sprints: [{ ref: `${ref}s1`, name: 'Sprint 1', state: 'active' }],
      items: [
        { key: 'WEB-1', type: 'epic', title: 'Pricing' },
        { key: 'WEB-2', type: 'story', title: 'Pricing page', epic_key: 'WEB-1', sprint: `${ref}s1`, points: 3 },
        { key: 'WEB-3', type: 'task', title: 'Copy', sprint: `${ref}s1`, points: 2 },
      ],
    },
  },
});

beforeAll(async () => {
  t = await testApp();
  s = await seed(t.db, fixture('acme'), fixture('other'));
  ({ owner, member, sam, other } = await workClients(t, s));
});
afterAll(() => t.close());

const item = (key: string) => `/hub/api/workmgmt/projects/${s.acme.projects.site}/items/${key}`;
const v1 = (path: string) => t.app.inject({ method: 'GET', url: `/v1/workmgmt/projects/${s.acme.projects.site}${path}`, headers: bearer(s.acme.keys.main) });
const versionOf = async (key: string): Promise<string> => (await member.get(item(key))).json().updated_at;

describe('editing an item', () => {
  it('writes one history row per changed field, with who and when; /v1 reads the same history', async () => {
    const at = await versionOf('WEB-3');
    const res = await member.patch(item('SITE-3'), {
      expected_updated_at: at, title: 'Write the copy', status: 'in_review', assignee: s.acme.users.sam, labels: ['web', 'copy'],
      epic_key: 'WEB-1', sprint_id: null, points: 5, due_date: '2026-12-01', description: 'Words.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ key: 'WEB-3', title: 'Write the copy', status: 'in_review', epic_key: 'WEB-1', sprint_id: null, points: 5 });
    expect(Date.parse(body.updated_at)).toBeGreaterThan(Date.parse(at));
    const actor = { id: s.acme.users.olivia, name: 'Olivia Lee' };
    const changes = body.history.map((h: { field: string; from: string | null; to: string | null; actor: unknown; kind: string }) => [h.kind, h.field, h.from, h.to]);
    expect(changes).toEqual([
      ['change', 'title', 'Copy', 'Write the copy'],
      ['change', 'description', '', 'Words.'],
      ['change', 'status', 'todo', 'in_review'],
      ['change', 'assignee', null, s.acme.users.sam],
      ['change', 'labels', null, 'web, copy'],
      ['change', 'due_date', null, '2026-12-01'],
      ['change', 'epic', null, 'WEB-1'],
      ['change', 'sprint', s.acme.sprints.acmes1, null],
      ['change', 'points', '2', '5'],
    ]);
    expect(body.history.every((h: { actor: unknown; at: string }) => JSON.stringify(h.actor) === JSON.stringify(actor) && h.at === body.updated_at)).toBe(true);
    const read = (await v1('/items/WEB-3')).json();
    expect(read.history).toEqual(body.history.map(({ seq: _s, ...h }: { seq: number }) => h));
  });

  it('an edit that changes nothing writes nothing', async () => {
    const before = (await member.get(item('WEB-3'))).json();
    const res = await member.patch(item('WEB-3'), { expected_updated_at: before.updated_at, title: before.title, points: before.points });
    expect(res.json()).toEqual(before);
  });

  it('refuses a stale version with 409 and writes nothing (no silent overwrite)', async () => {
    const seen = await versionOf('WEB-2');
    expect((await sam.patch(item('WEB-2'), { expected_updated_at: seen, status: 'done' })).statusCode).toBe(200);
    const stale = await member.patch(item('WEB-2'), { expected_updated_at: seen, title: 'Mine' });
    expectError(stale, 409, 'conflict', 'work_item_changed', 'expected_updated_at');
    const now = (await member.get(item('WEB-2'))).json();
    expect(now).toMatchObject({ title: 'Pricing page', status: 'done' });
    expect((await member.patch(item('WEB-2'), { expected_updated_at: now.updated_at, title: 'Mine' })).json().title).toBe('Mine');
    expectError(await member.patch(item('WEB-2'), { title: 'No version' }), 400, 'invalid_request', 'missing_field', 'expected_updated_at');
  });

  it('refuses bad fields by name, and keeps an epic with items an epic', async () => {
    const at = await versionOf('WEB-1');
    expectError(await member.patch(item('WEB-1'), { expected_updated_at: at, type: 'story' }), 422, 'invalid_request', 'invalid_field', 'type');
    expectError(await member.patch(item('WEB-1'), { expected_updated_at: at, title: '' }), 422, 'invalid_request', 'invalid_field', 'title');
    expectError(await member.patch(item('WEB-3'), { expected_updated_at: await versionOf('WEB-3'), start_date: '2027-01-01' }), 422, 'invalid_request', 'invalid_field', 'due_date');
    expect(await versionOf('WEB-1')).toBe(at);
  });

  it("another account's item is 404; an unknown key is 404", async () => {
    const at = await versionOf('WEB-2');
    expectError(await other.patch(item('WEB-2'), { expected_updated_at: at, title: 'x' }), 404, 'not_found', 'resource_not_found');
    expectError(await member.patch(item('WEB-99'), { expected_updated_at: at, title: 'x' }), 404, 'not_found', 'resource_not_found');
    expectError(await member.patch(item('WEB-2'), { expected_updated_at: at, assignee: s.other.users.olivia }), 422, 'invalid_request', 'invalid_field', 'assignee');
  });
});

describe('comments', () => {
  it('a member comments; only the author edits or deletes, and /v1 shows the comment as it now reads', async () => {
    const added = await member.post(`${item('WEB-2')}/comments`, { text: 'Draft is **up**.' });
    expect(added.statusCode, added.body).toBe(201);
    const comment = added.json().history.at(-1);
    expect(comment).toMatchObject({ kind: 'comment', text: 'Draft is **up**.', actor: { id: s.acme.users.olivia }, edited_at: null });
    const url = `${item('WEB-2')}/comments/${comment.seq}`;
    // Not the author: refused whatever the role, and nothing changes.
    expectError(await sam.patch(url, { text: 'Mine now' }), 403, 'permission', 'not_your_comment');
    expectError(await owner.delete(url), 403, 'permission', 'not_your_comment');
    const edited = (await member.patch(url, { text: 'Draft is up; review it.' })).json().history.at(-1);
    expect(edited).toMatchObject({ seq: comment.seq, at: comment.at, text: 'Draft is up; review it.' });
    expect(edited.edited_at).not.toBeNull();
    expect((await v1('/items/WEB-2')).json().history.at(-1)).toEqual({ at: comment.at, actor: comment.actor, kind: 'comment', text: 'Draft is up; review it.' });
    // Delete: gone from both reads; its seq is never given to a later comment.
    expect((await member.delete(url)).statusCode).toBe(204);
    expect((await v1('/items/WEB-2')).json().history.some((h: { kind: string }) => h.kind === 'comment')).toBe(false);
    expectError(await member.patch(url, { text: 'again' }), 404, 'not_found', 'resource_not_found');
    const next = (await sam.post(`${item('WEB-2')}/comments`, { text: 'Next' })).json().history.at(-1);
    expect(next.seq).toBe(comment.seq + 1);
  });

  it('refuses blank or control-character text, a change row named as a comment, and other accounts', async () => {
    expectError(await member.post(`${item('WEB-2')}/comments`, { text: '  \n ' }), 422, 'invalid_request', 'invalid_field', 'text');
    expectError(await member.post(`${item('WEB-2')}/comments`, { text: 'a\u0000b' }), 422, 'invalid_request', 'invalid_field', 'text');
    const change = (await member.get(item('WEB-2'))).json().history.find((h: { kind: string }) => h.kind === 'change');
    expectError(await member.patch(`${item('WEB-2')}/comments/${change.seq}`, { text: 'x' }), 404, 'not_found', 'resource_not_found');
    expectError(await other.post(`${item('WEB-2')}/comments`, { text: 'x' }), 404, 'not_found', 'resource_not_found');
    const mine = (await member.post(`${item('WEB-2')}/comments`, { text: 'kept' })).json().history.at(-1);
    expectError(await other.delete(`${item('WEB-2')}/comments/${mine.seq}`), 404, 'not_found', 'resource_not_found');
    expectError(await member.patch(`${item('WEB-2')}/comments/0`, { text: 'x' }), 400, 'invalid_request', 'invalid_id', 'seq');
  });
});

describe('deleting an item', () => {
  it('owners and admins only; the item leaves /v1 (lists, reads, sprint totals), keeps its history, and its number is not reused', async () => {
    expectError(await member.delete(item('WEB-2')), 403, 'permission', 'role_forbidden');
    expectError(await other.delete(item('WEB-2')), 404, 'not_found', 'resource_not_found');
    const totals = async () => (await v1('/sprints')).json().data[0].totals;
    expect(await totals()).toMatchObject({ items: 1 });
    expect((await owner.delete(item('WEB-2'))).statusCode).toBe(204);
    expectError(await v1('/items/WEB-2'), 404, 'not_found', 'resource_not_found');
    expectError(await member.get(item('WEB-2')), 404, 'not_found', 'resource_not_found');
    expect((await v1('/items')).json().data.map((i: { key: string }) => i.key)).toEqual(['WEB-1', 'WEB-3']);
    expect(await totals()).toMatchObject({ items: 0, points: 0 });
    expectError(await owner.delete(item('WEB-2')), 404, 'not_found', 'resource_not_found');
    const [{ n }] = await t.db.query<{ n: number }>(
      `select count(*)::int as n from wm_item_history h join wm_items i on i.account_id = h.account_id and i.id = h.item_id where i.number = 2 and i.account_id = $1`,
      [s.acme.id],
    );
    expect(n).toBeGreaterThan(0);
    expect((await member.post(`/hub/api/workmgmt/projects/${s.acme.projects.site}/items`, { type: 'task', title: 'New' })).json().key).toBe('WEB-4');
    const [audit] = await t.db.query<{ detail: Record<string, unknown> }>(`select detail from audit_log where account_id = $1 and action = 'work_item.deleted'`, [s.acme.id]);
    expect(audit.detail).toEqual({ project: 'Website', key: 'WEB-2', title: 'Mine' });
  });

  it("a deleted epic's items leave it, each with a history row", async () => {
    expect((await owner.delete(item('WEB-1'))).statusCode).toBe(204);
    const child = (await v1('/items/WEB-3')).json();
    expect(child.epic_key).toBeNull();
    expect(child.history.at(-1)).toMatchObject({ kind: 'change', field: 'epic', from: 'WEB-1', to: null, actor: { id: s.acme.users.owner } });
    expect((await v1('/items?epic=WEB-1')).json().data).toEqual([]);
  });
});
