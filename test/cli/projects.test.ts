// `switchboard projects create`: a project in an existing account with the hub's rules, audited
// as the operator; bad arguments are usage errors (2), an unknown account a refusal (1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperatorCommand } from '../../src/cli/operator.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { makeAccount, UNKNOWN, type TestAccount } from './support.js';

let t: TestDb;
let a: TestAccount;
beforeAll(async () => {
  t = await freshDb();
  a = await makeAccount(t.db);
});
afterAll(() => t?.close());

const projects = (...args: string[]) => runOperatorCommand(t.db, ['projects', ...args]);

describe('projects create', () => {
  it('creates the project, audited as the operator, as JSON and as text', async () => {
    const r = await projects('create', '--account', a.id, '--name', ' Newsletter ', '--description', 'Weekly', '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ name: 'Newsletter', description: 'Weekly' });
    const rows = await t.db.query(`select name, description, settings from projects where account_id = $1 and id = $2`, [a.id, out.id]);
    expect(rows).toEqual([{ name: 'Newsletter', description: 'Weekly', settings: {} }]);
    const audit = await t.db.query(`select action, actor_kind, object_id from audit_log where account_id = $1`, [a.id]);
    expect(audit).toEqual([{ action: 'project.created', actor_kind: 'operator', object_id: out.id }]);
    const text = await projects('create', '--account', a.id, '--name', 'Blog');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^created project [0-9a-f-]{36} \\("Blog"\\) in account ${a.id}`));
  });

  it('refuses a blank or too long name and a missing account (2), and an unknown account (1)', async () => {
    const blank = await projects('create', '--account', a.id, '--name', '  ');
    expect(blank.code).toBe(2);
    expect(blank.stderr).toMatch(/--name: The project name must be 1 to 200 characters/);
    expect((await projects('create', '--account', a.id, '--name', 'x'.repeat(201))).code).toBe(2);
    expect((await projects('create', '--account', a.id, '--name', 'X', '--description', 'd'.repeat(2_001))).stderr).toMatch(/--description: /);
    expect((await projects('create', '--name', 'X')).stderr).toMatch(/--account is required/);
    expect((await projects('frob')).stderr).toMatch(/unknown projects action "frob"/);
    const unknown = await projects('create', '--account', UNKNOWN, '--name', 'X');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no account/);
    expect(await t.db.query(`select 1 from projects where account_id = $1`, [a.id])).toHaveLength(2);
  });
});
