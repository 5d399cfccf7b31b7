// Re-sending a message from the hub (issue 26, part 8: POST /hub/api/messages/{id}/resend): a
// failed message becomes a new queued message naming it, with its content and Message-ID, which
// the sender delivers while the old one stays failed; an unknown one only with force; each message
// once (twice → the re-send named), a re-send's own re-send; every refusal in words (sent, queued,
// sending; the contact unsubscribed, on do-not-contact, STOP, erased, archived); two re-sends at
// once make one; and security: owners and admins only, another account's message, a revoked
// session, signed out, CSRF, a read-only account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sender } from '../../src/delivery/sender.js';
import { uuidv7 } from '../../src/lib/ids.js';
import type { Transport } from '../../src/delivery/types.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { expectError } from '../http/fixtures.js';
import { audienceWorld, auditOf, expectCsrfRefused, insertMessage, insertRun, type World } from './audience-support.js';

let t: TestApp;
let w: World;
let admin: HubClient;
/** Runs of acme's Held automation, one per contact. */
const run: Record<string, string> = {};

beforeAll(async () => {
  t = await testApp();
  w = await audienceWorld(t);
  const acme = w.s.acme;
  // An admin besides the world's owner and member: re-sending is for owners and admins.
  const adminId = uuidv7();
  await t.db.query(`insert into users (account_id, id, email, role) values ($1, $2, 'admin@acme.example', 'admin')`, [acme.id, adminId]);
  acme.users.admin = adminId;
  admin = await hubClient(t, { accountId: acme.id, userId: adminId, email: 'admin@acme.example' });
  for (const c of ['ann', 'bob', 'cy', 'di', 'gone', 'old']) run[c] = await insertRun(t, acme.id, acme.automations.held, acme.contacts[c], 'failed');
});
afterAll(() => t?.close());

const failed = (contact: string, o: { channel?: string; status?: string } = {}) =>
  insertMessage(t, w.s.acme.id, { runId: run[contact], status: o.status ?? 'failed', channel: o.channel, to: `${contact}@example.org`, error: 'refused' });

const resend = (c: HubClient, id: string, body?: unknown) => c.post(`/hub/api/messages/${id}/resend`, body);

const outbox = (id: string) =>
  t.db.query<{ status: string; message_id: string; subject: string; body: string; to_address: string; automation_run_id: string | null; step_id: string | null; effect_key: string | null; attempts: number; resend_of: string | null; error: string | null }>(
    `select status, message_id, subject, body, to_address, automation_run_id, step_id, effect_key, attempts, resend_of, error from outbox where id = $1`,
    [id],
  ).then((r) => r[0]);

const resendsOf = async (id: string) => (await t.db.query<{ id: string }>(`select id from outbox where resend_of = $1`, [id])).map((r) => r.id);

function counting(): { transport: Transport; sent: string[] } {
  const sent: string[] = [];
  return { sent, transport: { name: 'count', development: false, async send(m) { sent.push(m.messageId); } } };
}

describe('POST /hub/api/messages/{id}/resend', () => {
  it('queues a new message naming the failed one, with its content and Message-ID; the sender delivers it, the old stays failed', async () => {
    const old = await failed('cy');
    const r = await resend(w.owner, old);
    expect(r.statusCode, r.body).toBe(201);
    const sent = r.json();
    expect(sent).toMatchObject({ status: 'queued', resend_of: old, resent_as: null, to: 'cy@example.org', subject: 'SECRET-SUBJECT', attempts: 0, attempt_log: [] });
    const [a, b] = [await outbox(old), await outbox(sent.id)];
    expect(b).toMatchObject({ message_id: a.message_id, body: a.body, to_address: a.to_address, automation_run_id: run.cy, step_id: 'e1', effect_key: null, resend_of: old });
    expect((await w.owner.get(`/hub/api/messages/${old}`)).json()).toMatchObject({ status: 'failed', resent_as: sent.id, resend_of: null });
    expect(await auditOf(t, w.s.acme.id, old)).toEqual([{ action: 'message.resent', actor_label: expect.stringContaining('owner@acme.example'), detail: { resent_as: sent.id, channel: 'email', was: 'failed' } }]);

    const sink = counting();
    const sender = new Sender({ db: t.db, transports: { email: sink.transport, sms: sink.transport }, pollMs: 60_000 });
    await sender.drain();
    expect(sink.sent).toContain(a.message_id);
    expect(await outbox(sent.id)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(await outbox(old)).toMatchObject({ status: 'failed', error: 'refused', attempts: 0 });
  });

  it('re-sending twice is refused naming the re-send; a failed re-send can itself be re-sent', async () => {
    const old = await failed('cy');
    const first = (await resend(admin, old)).json().id as string;
    const again = await resend(admin, old);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ type: 'conflict', code: 'message_cannot_resend', message: expect.stringMatching(/re-sent already/), resource_id: first });
    await t.db.query(`update outbox set status = 'failed' where id = $1`, [first]);
    const second = await resend(admin, first);
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().resend_of).toBe(first);
    expect(await resendsOf(old)).toEqual([first]);
  });

  it('an unknown message only with force, which the audit entry says', async () => {
    const old = await failed('cy', { status: 'unknown' });
    expect(expectError(await resend(admin, old), 409, 'conflict', 'message_cannot_resend').message).toMatch(/may have arrived/);
    expectError(await resend(admin, old, { force: false }), 409, 'conflict', 'message_cannot_resend');
    const r = await resend(admin, old, { force: true });
    expect(r.statusCode, r.body).toBe(201);
    expect((await auditOf(t, w.s.acme.id, old))[0].detail).toMatchObject({ was: 'unknown' });
    // Force changes nothing for a failed one; a team notice (no contact) is re-sent like any other.
    const team = await insertMessage(t, w.s.acme.id, { runId: null, channel: 'team', status: 'failed', to: 'owner@acme.example' });
    expect((await resend(admin, team, { force: true })).statusCode).toBe(201);
  });

  it('two re-sends of one message at once make exactly one', async () => {
    const old = await failed('cy');
    const answers = await Promise.all([resend(admin, old), resend(w.owner, old), resend(admin, old)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json().error.code).toBe('message_cannot_resend');
    expect(await resendsOf(old)).toHaveLength(1);
  });
});

describe('refusals, in words; nothing is queued', () => {
  it('a sent, queued or sending message', async () => {
    for (const [status, words] of [['sent', /was sent/], ['queued', /still waiting to be sent/], ['sending', /being sent right now/]] as const) {
      const id = await failed('cy', { status });
      expect(expectError(await resend(admin, id, { force: true }), 409, 'conflict', 'message_cannot_resend').message, status).toMatch(words);
      expect(await resendsOf(id)).toEqual([]);
    }
  });

  it('a contact on do-not-contact, unsubscribed, who replied STOP, erased or archived: checked again now', async () => {
    await t.db.query(`update contacts set email_opt_out = true where id = $1`, [w.s.acme.contacts.di]);
    await t.db.query(`update contacts set sms_stopped = true where id = $1`, [w.s.acme.contacts.ann]);
    for (const [contact, channel, words] of [
      ['bob', 'email', /do-not-contact/],
      ['di', 'email', /opted out of email/],
      ['ann', 'sms', /replied STOP/],
      ['gone', 'email', /erased at their request/],
      ['old', 'email', /archived/],
    ] as const) {
      const id = await failed(contact, { channel });
      expect(expectError(await resend(admin, id), 409, 'conflict', 'message_cannot_resend').message, contact).toMatch(words);
      expect(await resendsOf(id)).toEqual([]);
    }
    // Ann may still get email: only her texts stopped.
    expect((await resend(admin, await failed('ann'))).statusCode).toBe(201);
  });

  it('validates its id and body', async () => {
    const id = await failed('cy');
    expectError(await resend(admin, 'nope'), 400, 'invalid_request', 'invalid_id', 'id');
    expectError(await resend(admin, id, { force: 'yes' }), 422, 'invalid_request', 'invalid_field', 'force');
    expectError(await resend(admin, id, { again: true }), 422, 'invalid_request', 'unknown_field', 'again');
    expectError(await resend(admin, '00000000-0000-4000-8000-000000000000'), 404, 'not_found', 'resource_not_found');
    expect(await resendsOf(id)).toEqual([]);
  });
});

describe('security', () => {
  it('a member → 403 role_forbidden (they cannot read what it says or to whom); owners and admins may', async () => {
    const id = await failed('cy');
    expectError(await resend(w.member, id), 403, 'permission', 'role_forbidden');
    expect(await resendsOf(id)).toEqual([]);
  });

  it("another account's message → 404, as an unknown one", async () => {
    const theirs = await insertMessage(t, w.s.other.id, { runId: null, status: 'failed', to: 'theirs@example.org' });
    expectError(await resend(admin, theirs), 404, 'not_found', 'resource_not_found');
    expect(await resendsOf(theirs)).toEqual([]);
  });

  it('signed out, or with a session signed out since → 401; CSRF → 403; a read-only account → 403', async () => {
    const id = await failed('cy');
    expectError(await t.app.inject({ method: 'POST', url: `/hub/api/messages/${id}/resend` }), 401, 'authentication', 'not_signed_in');
    const gone = await hubClient(t, { accountId: w.s.acme.id, userId: w.s.acme.users.admin, email: 'admin@acme.example' });
    expect((await gone.delete('/hub/api/session')).statusCode).toBe(204);
    expectError(await resend(gone, id), 401, 'authentication', 'not_signed_in');
    await expectCsrfRefused(admin, 'POST', `/hub/api/messages/${id}/resend`, {});
    const lapsedMsg = await insertMessage(t, w.s.lapsed.id, { runId: null, status: 'failed', to: 'kim@example.org' });
    expectError(await resend(w.lapsed, lapsedMsg), 403, 'permission', 'subscription_inactive');
    expect([...(await resendsOf(id)), ...(await resendsOf(lapsedMsg))]).toEqual([]);
  });
});
