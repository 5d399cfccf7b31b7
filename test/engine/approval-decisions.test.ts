// The approval block and the decisions taken on it (issue 25): approved with an edit, the run goes
// on with the edited text and the step keeps the draft as it was; approved as it stood, nothing
// extra is kept; rejected with a reason, the step keeps it. A run that starts waiting queues one
// email per owner and admin of its account (or per person the block names who is one of its
// users), once per wait, with a link to the run and no draft.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approval } from '../../src/engine/blocks/flow.js';
import type { Engine } from '../../src/engine/engine.js';
import { seedFixture } from '../../src/fixtures/load.js';
import { moveRun } from '../../src/services/runs/by-user.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { chain, insertWorkflow, queueRun, steps, testBlocks, testEngine, waitForRun } from './support.js';

let t: TestDb;
let acme: string;
let users: Record<string, string>;
let engine: Engine;
const DRAFT = 'Dear customer, the draft with a secret-looking token sk_live_123.';

beforeAll(async () => {
  t = await freshDb();
  const seeded = await seedFixture(
    t.db,
    {
      accounts: [
        {
          ref: 'acme',
          name: 'Acme',
          users: [
            { ref: 'owner', email: 'owner@acme.example', role: 'owner' },
            { ref: 'admin', email: 'admin@acme.example', role: 'admin' },
            { ref: 'mem', email: 'mem@acme.example', role: 'member' },
          ],
        },
        { ref: 'other', name: 'Other', users: [{ ref: 'owner', email: 'owner@other.example', role: 'owner' }] },
      ],
    },
    { erasureSecret: Buffer.from('t') },
  );
  acme = seeded.accounts.acme.id;
  users = seeded.accounts.acme.users;
  await t.db.exec(`create table if not exists test_executions (n serial primary key, run_id uuid not null, block_id text not null, attempt int not null)`);
  engine = testEngine(t.db, {}, { blocks: new Map([...testBlocks(), ['approval', approval]]) });
  await engine.start();
});
afterAll(async () => {
  await engine?.stop();
  await t?.close();
});

async function awaiting(notify?: string): Promise<string> {
  const { blocks, edges } = chain([
    { id: 'draft', kind: 'test.echo', config: { text: DRAFT } },
    { id: 'ok', kind: 'approval', config: { message: 'Check the tone', ...(notify === undefined ? {} : { notify }) } },
    { id: 'publish', kind: 'test.echo' },
  ]);
  const id = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, blocks, edges));
  await waitForRun(t.db, id, 'awaiting_approval');
  return id;
}

const outbox = (runId: string) =>
  t.db.query<{ account_id: string; channel: string; to_address: string; subject: string; body: string }>(
    `select account_id, channel, to_address, subject, body from outbox where effect_key like $1 order by to_address`,
    [`approval:${runId}:%`],
  );

describe('approve with an edit', () => {
  it('the run goes on with the edited text; the approval step keeps the draft and who decided', async () => {
    const id = await awaiting();
    await moveRun(t.db, { accountId: acme, runId: id, move: 'approve', actor: { kind: 'user', id: users.mem, label: 'mem' }, text: 'The edited text.' });
    await waitForRun(t.db, id, 'succeeded');
    const s = await steps(t.db, id);
    expect(s.map((x) => [x.node_id, x.status])).toEqual([['draft', 'succeeded'], ['ok', 'succeeded'], ['publish', 'succeeded']]);
    expect(s[1].output).toEqual({ text: 'The edited text.', approved: true, edited: true, original_text: DRAFT });
    expect(s[2].output!.text).toBe('ok=The edited text.');
    const [d] = await t.db.query<{ decided_by_user: string; approved_text: string; decided_at: Date }>(
      `select decided_by_user, approved_text, decided_at from workflow_run_steps where run_id = $1 and node_id = 'ok'`,
      [id],
    );
    expect(d).toMatchObject({ decided_by_user: users.mem, approved_text: 'The edited text.' });
    expect(d.decided_at).toBeInstanceOf(Date);
  });

  it('approved as it stood (or "edited" to the same text): the draft goes on, nothing extra kept', async () => {
    for (const text of [undefined, DRAFT]) {
      const id = await awaiting();
      await moveRun(t.db, { accountId: acme, runId: id, move: 'approve', actor: { kind: 'operator' }, text });
      await waitForRun(t.db, id, 'succeeded');
      const s = await steps(t.db, id);
      expect(s[1].output).toEqual({ text: DRAFT, approved: true });
      expect(s[2].output!.text).toBe(`ok=${DRAFT}`);
    }
  });

  it('reject with a reason: the step fails "Rejected" and keeps the reason', async () => {
    const id = await awaiting();
    await moveRun(t.db, { accountId: acme, runId: id, move: 'reject', actor: { kind: 'user', id: users.owner, label: 'owner' }, reason: '  Too formal.  ' });
    const [d] = await t.db.query<{ status: string; error: string; reject_reason: string; decided_by_user: string }>(
      `select status, error, reject_reason, decided_by_user from workflow_run_steps where run_id = $1 and node_id = 'ok'`,
      [id],
    );
    expect(d).toEqual({ status: 'failed', error: 'Rejected', reject_reason: 'Too formal.', decided_by_user: users.owner });
  });
});

describe('the approvers are told', () => {
  it('one email per owner and admin of the account per wait (never a member, never another account), with the link and no draft', async () => {
    const id = await awaiting();
    const mails = await outbox(id);
    expect(mails.map((m) => m.to_address)).toEqual(['admin@acme.example', 'owner@acme.example']);
    for (const m of mails) {
      expect(m).toMatchObject({ account_id: acme, channel: 'team', subject: 'Approval needed: a run of "Test workflow"' });
      expect(m.body).toContain(`/runs/${id}`);
      expect(m.body).toContain('Check the tone');
      expect(m.body).not.toContain('sk_live_123');
      expect(m.body).not.toContain('Dear customer');
    }
    // Approved and finished: no further email for the same wait.
    await moveRun(t.db, { accountId: acme, runId: id, move: 'approve', actor: { kind: 'operator' } });
    await waitForRun(t.db, id, 'succeeded');
    expect(await outbox(id)).toHaveLength(2);
    // Another run's wait is another pair.
    const next = await awaiting();
    expect(await outbox(next)).toHaveLength(2);
    const [{ n }] = await t.db.query<{ n: number }>(`select count(*)::int as n from outbox where to_address like '%@other.example'`);
    expect(n).toBe(0);
  });

  it('the people the block names instead, when they are users of the account (any case, each once); nobody of the account named: the owners and admins', async () => {
    const named = await awaiting(' MEM@acme.example, owner@OTHER.example, stranger@else.example, mem@acme.example ');
    const mails = await outbox(named);
    expect(mails.map((m) => m.to_address)).toEqual(['mem@acme.example']);
    expect(mails[0].body).toContain('the approval step of this workflow names you');
    // Another account's user and a stranger are never emailed, even when they are all it names.
    const nobody = await awaiting('owner@other.example, stranger@else.example');
    const fallback = await outbox(nobody);
    expect(fallback.map((m) => m.to_address)).toEqual(['admin@acme.example', 'owner@acme.example']);
    expect(fallback[0].body).toContain('because you are an owner or an admin');
  });
});
