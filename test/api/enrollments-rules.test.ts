// Enrollment rules at their edges: an id given twice is decided once (a skip's reason repeats; only
// a contact that got the run is already_enrolled the second time), re-enrollment is part of the
// published version (a draft-only change neither acts nor goes unreported), and the result names
// the automation as the API gives its id out (lower case).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEdit } from '../../src/services/automations/service.js';
import { findAutomationDraft, publishDraft, replaceDraft } from '../../src/services/automations/store.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, seed } from '../http/fixtures.js';

let t: TestApp;
let S: Record<string, AccountSeedResult>;
let n = 0;
const steps = [{ id: 'e1', name: 'Welcome', type: 'email.send', config: { subject: 'Hi', body: 'Hello' } }];
const automation = (ref: string) => ({
  ref, name: ref, project: 'site', status: 'published', trigger: { type: 'contact.created', label: 'Contact is created' }, steps,
});

beforeAll(async () => {
  t = await testApp();
  S = await seed(t.db, {
    ...account('a'),
    keys: [{ ref: 'k', name: 'CRM sync', scopes: ['automations:enroll', 'automations:read'] }],
    projects: [{ ref: 'site', name: 'Site', settings: { max_automations_per_contact: 1 } }],
    automations: [automation('once'), automation('other'), automation('edited')],
    contacts: Array.from({ length: 5 }, (_, i) => ({ ref: `c${i}`, email: `c${i}@example.org` })),
  });
});
afterAll(() => t?.close());

function enroll(ref: string, contactIds: string[], url = `/v1/automations/${S.a.automations[ref]}/enrollments`) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(S.a.keys.k), 'idempotency-key': `enroll-key-${n++}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ contact_ids: contactIds }),
  });
}
const c = (r: string) => S.a.contacts[r];
const finish = (contactId: string) =>
  t.db.query(`update automation_runs set status = 'succeeded', finished_at = now() where contact_id = $1`, [contactId]);

describe('Enrollment result: skip reasons of an id given twice', () => {
  it('enrolled_before: an id given twice is skipped enrolled_before both times, never already_enrolled (it was not enrolled)', async () => {
    await enroll('once', [c('c1')]);
    await finish(c('c1'));
    const body = (await enroll('once', [c('c1'), c('c1')])).json();
    expect(body.enrolled).toBe(0);
    expect(body.skipped).toEqual([
      { contact_id: c('c1'), reason: 'enrolled_before' },
      { contact_id: c('c1'), reason: 'enrolled_before' },
    ]);
  });

  it('too_many_automations: an id given twice is skipped too_many_automations both times, never already_enrolled', async () => {
    await enroll('once', [c('c2')]); // the project allows 1 automation at once
    const body = (await enroll('other', [c('c2'), c('c2')])).json();
    expect(body.enrolled).toBe(0);
    expect(body.skipped).toEqual([
      { contact_id: c('c2'), reason: 'too_many_automations' },
      { contact_id: c('c2'), reason: 'too_many_automations' },
    ]);
  });
});

describe('Automation: published_version is the version that runs; has_unpublished_changes', () => {
  it('a draft-only edit of re-enrollment neither changes what runs (enrolled_before still applies) nor goes unreported', async () => {
    const id = S.a.automations.edited;
    await enroll('edited', [c('c3')]);
    await finish(c('c3'));
    // What `switchboard automations edit` does ("Runs keep running the published version"), no publish.
    await t.db.transaction(async (tx) => {
      const cur = (await findAutomationDraft(tx, id, S.a.id, true))!;
      await replaceDraft(tx, S.a.id, id, applyEdit(cur, { reenroll: 'always' }));
    });
    const a = (await t.app.inject({ method: 'GET', url: `/v1/automations/${id}`, headers: bearer(S.a.keys.k) })).json();
    const r = (await enroll('edited', [c('c3')])).json();
    expect({ has_unpublished_changes: a.has_unpublished_changes, enrolled: r.enrolled, skipped: r.skipped }).toEqual({
      has_unpublished_changes: true,
      enrolled: 0,
      skipped: [{ contact_id: c('c3'), reason: 'enrolled_before' }],
    });
    // Published, the new setting runs: the contact goes through again, and nothing is unpublished.
    await t.db.transaction(async (tx) => {
      await findAutomationDraft(tx, id, S.a.id, true);
      await publishDraft(tx, S.a.id, id, { label: 'operator', userId: null });
    });
    const after = (await t.app.inject({ method: 'GET', url: `/v1/automations/${id}`, headers: bearer(S.a.keys.k) })).json();
    expect(after).toMatchObject({ has_unpublished_changes: false, published_version: 2 });
    const again = (await enroll('edited', [c('c3')])).json();
    expect({ enrolled: again.enrolled, skipped: again.skipped }).toEqual({ enrolled: 1, skipped: [] });
  });
});

describe('Enrollment result: automation_id', () => {
  it('is the automation id as the API gives it out (lowercase), whatever case the path used', async () => {
    const id = S.a.automations.other;
    const r = await enroll('other', [c('c4')], `/v1/automations/${id.toUpperCase()}/enrollments`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().automation_id).toBe(id);
  });
});
