// `switchboard workflows create|edit|status|schedule|export`: export → create gives the same
// definition; edit replaces it; status and schedule as /v1 and the store then show them; a
// definition problem names the file and the path inside it (exit 1, nothing saved); usage errors
// exit 2; the admin socket's path (the CLI reads FILE, the server gets its contents).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesContext, readInputFiles, runOperatorCommand } from '../../src/cli/operator.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { bearer, seed } from '../http/fixtures.js';
import { memoryContext, UNKNOWN } from './support.js';

let t: TestApp;
let A: AccountSeedResult;
let B: AccountSeedResult;

beforeAll(async () => {
  t = await testApp();
  const acct = (ref: string) => ({
    ref,
    name: ref,
    users: [{ ref: 'owner', email: `owner@${ref}.example`, role: 'owner' }],
    keys: [{ ref: 'main', name: 'main', scopes: ['workflows:read'], created_by: 'owner' }],
    projects: [{ ref: 'site', name: 'Site', items: [{ ref: 'about', kind: 'page', title: 'About', text: 'Hello.' }] }],
  });
  ({ a: A, b: B } = await seed(t.db, acct('a'), acct('b')));
});
afterAll(() => t?.close());

const definition = () => ({
  name: 'Weekly',
  description: 'From the CLI',
  project_id: A.projects.site,
  status: 'active',
  blocks: [
    { id: 'src', kind: 'source.item', config: { item_id: A.items.about } },
    { id: 'tpl', kind: 'transform.template', config: { template: 'Page: {{src}}' } },
    { id: 'out', kind: 'output.project', config: { title: 'Weekly' } },
  ],
  edges: [{ from: 'src', to: 'tpl' }, { from: 'tpl', to: 'out' }],
  schedule: '0 9 * * 1',
  schedule_timezone: 'Europe/Paris',
});

const cmd = (argv: string[], file?: unknown) =>
  runOperatorCommand(t.db, argv, memoryContext(file === undefined ? {} : { 'wf.json': typeof file === 'string' ? file : JSON.stringify(file) }));

async function create(def: unknown = definition()): Promise<string> {
  const r = await cmd(['workflows', 'create', 'wf.json', '--account', A.id], def);
  expect(r.code, r.stderr).toBe(0);
  const id = /^workflow (\S+) created/.exec(r.stdout)?.[1];
  expect(id).toBeDefined();
  return id!;
}

const v1 = async (id: string) => (await t.app.inject({ method: 'GET', url: `/v1/workflows/${id}`, headers: bearer(A.keys.main) })).json();

describe('happy path', () => {
  it('create, then export prints the same definition; creating from the export gives it again', async () => {
    const id = await create();
    const out = await cmd(['workflows', 'export', id]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe(JSON.stringify(definition(), null, 2) + '\n');
    const again = await create(out.stdout);
    expect((await cmd(['workflows', 'export', again, '--account', A.id])).stdout).toBe(out.stdout);
    expect(await v1(id)).toMatchObject({ name: 'Weekly', status: 'active', project_id: A.projects.site });
    const audit = await t.db.query<{ action: string; actor_kind: string }>('select action, actor_kind from audit_log where object_id = $1', [id]);
    expect(audit).toEqual([{ action: 'workflow.created', actor_kind: 'operator' }]);
  });

  it('edit replaces the definition; status and schedule move it', async () => {
    const id = await create();
    const edited = await cmd(['workflows', 'edit', id, 'wf.json'], { name: 'Edited', blocks: [{ id: 'only', kind: 'source.text', config: { text: 'x' } }] });
    expect(edited).toMatchObject({ code: 0, stdout: `workflow ${id} saved (draft, 1 block); runs already started keep their blocks\n` });
    expect(await v1(id)).toMatchObject({ name: 'Edited', status: 'draft', project_id: null });

    expect(await cmd(['workflows', 'status', id, 'paused'])).toMatchObject({ code: 0, stdout: `workflow ${id} is paused\n` });
    expect((await v1(id)).status).toBe('paused');

    const on = await cmd(['workflows', 'schedule', id, '30 7 * * *', '--timezone', 'Asia/Tokyo', '--account', A.id]);
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toMatch(new RegExp(`^workflow ${id} runs on "30 7 \\* \\* \\*" \\(Asia/Tokyo\\); next at \\d{4}-\\d\\d-\\d\\dT22:30:00.000Z\\n$`));
    const off = await cmd(['workflows', 'schedule', id, '--off']);
    expect(off).toMatchObject({ code: 0, stdout: `workflow ${id}: no schedule\n` });
    const exported = JSON.parse((await cmd(['workflows', 'export', id])).stdout);
    expect(exported).toMatchObject({ schedule: null, schedule_timezone: 'Asia/Tokyo', status: 'paused' });
    const actions = await t.db.query<{ action: string }>('select action from audit_log where object_id = $1 order by at, id', [id]);
    expect(actions.map((a) => a.action)).toEqual(['workflow.created', 'workflow.updated', 'workflow.status_changed', 'workflow.schedule_changed', 'workflow.schedule_changed']);
  });

  it('through the admin socket: the CLI reads FILE and the server gets its contents', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-wf-'));
    try {
      fs.writeFileSync(path.join(dir, 'def.json'), JSON.stringify({ ...definition(), name: 'Over the socket' }));
      const argv = ['workflows', 'create', 'def.json', '--account', A.id];
      const files = await readInputFiles(argv, dir);
      expect(Object.keys(files)).toEqual(['def.json']);
      const r = await runOperatorCommand(t.db, argv, filesContext(files, 'server'));
      expect(r.code, r.stderr).toBe(0);
      const id = /^workflow (\S+) created/.exec(r.stdout)![1];
      expect((await v1(id)).name).toBe('Over the socket');
      expect(Object.keys(await readInputFiles(['workflows', 'export', id], dir))).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('refusals (exit 1, nothing changed)', () => {
  it('a definition problem names the file and the path inside it', async () => {
    const before = await t.db.query('select count(*)::int as n from workflows');
    const cycle = { ...definition(), edges: [...definition().edges, { from: 'out', to: 'src' }] };
    expect(await cmd(['workflows', 'create', 'wf.json', '--account', A.id], cycle)).toMatchObject({
      code: 1,
      stderr: 'error: wf.json: edges[2]: These connections go round in a circle: src → tpl → out → src. A workflow must flow one way: remove one of them\n',
    });
    const otherItem = { ...definition(), blocks: [{ id: 'src', kind: 'source.item', config: { item_id: B.items.about } }], edges: [] };
    expect((await cmd(['workflows', 'create', 'wf.json', '--account', A.id], otherItem)).stderr).toBe(
      `error: wf.json: blocks[0].config.item_id: no content item with id "${B.items.about}" in this account\n`,
    );
    expect((await cmd(['workflows', 'create', 'wf.json', '--account', A.id], '{"name": "x",')).stderr).toMatch(/^error: wf\.json is not valid JSON/);
    expect((await cmd(['workflows', 'create', 'wf.json', '--account', A.id], '{"name": "x", "name": "y"}')).stderr).toMatch(/appears twice/);
    expect(await t.db.query('select count(*)::int as n from workflows')).toEqual(before);
  });

  it('an unknown workflow, or one outside --account, or a schedule that cannot run', async () => {
    const id = await create();
    expect(await cmd(['workflows', 'export', UNKNOWN])).toMatchObject({ code: 1, stderr: `error: no workflow ${UNKNOWN}\n` });
    expect(await cmd(['workflows', 'status', id, 'draft', '--account', B.id])).toMatchObject({ code: 1, stderr: `error: no workflow ${id} in account ${B.id}\n` });
    const bad = await cmd(['workflows', 'schedule', id, 'every monday']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: schedule: The schedule 'every monday' is not valid: use five fields/);
    expect(JSON.parse((await cmd(['workflows', 'export', id])).stdout)).toEqual(definition());
  });
});

describe('usage errors (exit 2)', () => {
  it.each([
    [['workflows'], 'workflows needs an action'],
    [['workflows', 'delete', UNKNOWN], 'unknown workflows action'],
    [['workflows', 'create', 'wf.json'], '--account is required'],
    [['workflows', 'create', '--account', UNKNOWN], 'the definition FILE is required'],
    [['workflows', 'edit', 'not-a-uuid', 'wf.json'], 'must be a UUID'],
    [['workflows', 'status', UNKNOWN, 'archived'], 'must be one of draft, active, paused'],
    [['workflows', 'schedule', UNKNOWN], 'or --off'],
    [['workflows', 'schedule', UNKNOWN, '0 9 * * *', '--off'], '--off takes no CRON'],
  ])('%j', async (argv, message) => {
    const r = await cmd(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain('switchboard workflows create FILE --account ID');
  });
});
