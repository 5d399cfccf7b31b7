// `switchboard automations edit|publish|pause|resume` and `automation-runs stop`: what they change
// as the API then shows it (has_unpublished_changes, published_version, status, a run's pinned
// version), their refusals (exit 1, nothing changed) and usage errors (exit 2), and the path the
// admin socket takes (the CLI reads FILE, the server gets its contents).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesContext, readInputFiles, runOperatorCommand } from '../../src/cli/operator.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, seed } from '../http/fixtures.js';
import { memoryContext } from './support.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let acme: AccountSeedResult;
let a: Record<string, string>;

const STEPS = [
  { id: 'e1', name: 'Welcome email', type: 'email.send', config: { subject: 'Hi', body: 'Hello' } },
  { id: 'x', name: 'End', type: 'end' },
];
const auto = (ref: string, status: string, extra: Record<string, unknown> = {}) => ({
  ref, name: ref, project: 'p', status, trigger: { type: 'manual', label: 'By hand' }, steps: STEPS, ...extra,
});

/** Runs `automations …` with FILE served from memory (its contents as given, JSON-encoded unless a string). */
const cmd = (argv: string[], file?: unknown) =>
  runOperatorCommand(t.db, argv, memoryContext(file === undefined ? {} : { 'edit.json': typeof file === 'string' ? file : JSON.stringify(file) }));
const edit = (id: string, file: unknown) => cmd(['automations', 'edit', id, 'edit.json'], file);
const api = async (id: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/v1/automations/${id}`, headers: bearer(acme.keys.main) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const row = async (id: string) =>
  (await t.db.query<{ status: string; published_version: number; updated_at: Date; steps: unknown }>(
    'select status, published_version, updated_at, steps from automations where id = $1', [id],
  ))[0];

beforeAll(async () => {
  t = await testApp();
  s = await seed(
    t.db,
    {
      ...account('acme', { projects: ['p'], keys: [{ ref: 'main', scopes: ['automations:read'] }] }),
      automations: [
        auto('pub', 'published'), auto('pinned', 'published'), auto('refuse', 'published'), auto('paused', 'paused'), auto('moves', 'published'),
        { ref: 'draft', name: 'Draft', project: 'p', steps: STEPS }, { ref: 'bare', name: 'Bare', project: 'p' },
      ],
      contacts: [{ ref: 'ann', email: 'ann@example.org', first_name: 'Ann' }],
    },
    { ...account('other', { projects: ['op'] }), automations: [{ ref: 'theirs', name: 'Theirs', project: 'op' }] },
  );
  acme = s.acme;
  a = acme.automations;
});
afterAll(() => t?.close());

describe('automations edit', () => {
  it('replaces the draft: updated_at moves, has_unpublished_changes becomes true, the summary stays the running version', async () => {
    const before = await api(a.pub);
    expect(before.has_unpublished_changes).toBe(false);
    const r = await edit(a.pub, { name: 'Pub v2', steps: [...STEPS.slice(0, 1), { id: 's1', name: 'Text', type: 'sms.send', config: { body: 'Hi' } }, STEPS[1]] });
    expect(r, r.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toBe(`automation ${a.pub}: draft saved (3 steps); it differs from published version 1: publish it to run the changes\n`);
    const after = await api(a.pub);
    expect(after).toMatchObject({ name: 'Pub v2', has_unpublished_changes: true, published_version: 1, step_count: 2, sends: ['email'] });
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    // Editing the draft back to what is published: no unpublished changes any more.
    const back = await edit(a.pub, { steps: STEPS });
    expect(back.stdout).toMatch(/it is the same as published version 1\n$/);
    expect((await api(a.pub)).has_unpublished_changes).toBe(false);
  });

  it('a never-published draft: the summary follows the draft and has_unpublished_changes stays false', async () => {
    const r = await edit(a.draft, { trigger: { type: 'contact.created', label: 'New contact' }, steps: [{ id: 'n', name: 'Tell the team', type: 'notify.team' }], run_only_if: { field: 'lifecycle_stage', op: 'eq', value: 'lead' }, reenroll: 'always' });
    expect(r.stdout).toMatch(/draft saved \(1 step\); never published/);
    expect(await api(a.draft)).toMatchObject({ trigger: { type: 'contact.created', label: 'New contact' }, has_unpublished_changes: false, step_count: 1, sends: ['team'], published_version: 0 });
    const [db] = await t.db.query<{ reenroll: string; run_only_if: unknown }>('select reenroll, run_only_if from automations where id = $1', [a.draft]);
    expect(db).toEqual({ reenroll: 'always', run_only_if: { field: 'lifecycle_stage', op: 'eq', value: 'lead' } });
  });

  it.each([
    ['not JSON', '{"steps": [', /^error: edit\.json is not valid JSON: /],
    ['not an object', [], /^error: edit\.json: must be a JSON object, got an array\n$/],
    ['nothing to change', {}, /^error: edit\.json: changes nothing: give at least one of trigger, steps, run_only_if, reenroll, name\n$/],
    ['an unknown field', { status: 'published' }, /^error: edit\.json: status: unknown field \(allowed here: trigger, steps, run_only_if, reenroll, name\)\n$/],
    ['an unknown step type', { steps: [{ id: 'a', name: 'A', type: 'fax.send' }] }, /^error: edit\.json: steps\[0\]\.type: "fax\.send" is not a step type/],
    ['the reserved id t', { steps: [{ id: 't', name: 'T', type: 'end' }] }, /steps\[0\]\.id: "t" is reserved for the trigger/],
    ['a duplicate step id', { steps: [STEPS[0], STEPS[0]] }, /steps\[1\]\.id: duplicate step id "e1"/],
    ['a next to nowhere', { steps: [{ ...STEPS[0], next: 'zz' }] }, /steps\[0\]\.next: no step with id "zz" in this automation/],
    ['branches on a non-branch step', { steps: [{ ...STEPS[0], branches: { yes: 'x' } }, STEPS[1]] }, /steps\[0\]\.branches: only a branch step has branches/],
    ['a blank name', { name: ' ' }, /^error: edit\.json: name: must not be empty\n$/],
    ['a bad reenroll', { reenroll: 'sometimes' }, /reenroll: "sometimes" is not one of never, always, after_exit/],
    ['a published automation without a trigger type', { trigger: { label: 'none' } }, /^error: edit\.json: trigger: a published automation needs a trigger type\n$/],
    ['a null trigger', { trigger: null }, /trigger: must be a JSON object, got null/],
  ])('refuses %s (exit 1) and changes nothing', async (_what, file, message) => {
    const before = await row(a.refuse);
    const r = await edit(a.refuse, file);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(await row(a.refuse)).toEqual(before);
  });

  it('refuses unknown, foreign (with --account) and deleted automations, and a file it cannot read', async () => {
    const unknown = uuidv7();
    expect(await edit(unknown, { name: 'x' })).toMatchObject({ code: 1, stderr: `error: no automation ${unknown}\n` });
    const foreign = await cmd(['automations', 'edit', s.other.automations.theirs, 'edit.json', '--account', acme.id], { name: 'x' });
    expect(foreign).toMatchObject({ code: 1, stderr: `error: no automation ${s.other.automations.theirs} in account ${acme.id}\n` });
    const gone = uuidv7();
    await t.db.query(`insert into automations (account_id, id, project_id, name, deleted_at) values ($1, $2, $3, 'Gone', now())`, [acme.id, gone, acme.projects.p]);
    expect(await edit(gone, { name: 'x' })).toMatchObject({ code: 1, stderr: `error: automation ${gone} was deleted in the hub\n` });
    expect((await cmd(['automations', 'publish', gone])).code).toBe(1);
    const missing = await runOperatorCommand(t.db, ['automations', 'edit', a.refuse, 'nope.json'], memoryContext({}));
    expect(missing.code).toBe(1);
  });

  it('through the admin socket: the CLI reads FILE and the server applies its contents', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-auto-'));
    try {
      fs.writeFileSync(path.join(dir, 'rename.json'), JSON.stringify({ name: 'Renamed over the socket' }));
      const argv = ['automations', 'edit', a.draft, 'rename.json'];
      const files = await readInputFiles(argv, dir);
      expect(Object.keys(files)).toEqual(['rename.json']);
      const r = await runOperatorCommand(t.db, argv, filesContext(files, 'server'));
      expect(r.code, r.stderr).toBe(0);
      expect((await api(a.draft)).name).toBe('Renamed over the socket');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('automations publish', () => {
  it('a draft becomes published version 1; a bare draft is refused', async () => {
    const r = await cmd(['automations', 'publish', a.draft]);
    expect(r).toMatchObject({ code: 0, stdout: `automation ${a.draft} published as version 1\n` });
    expect(await api(a.draft)).toMatchObject({ status: 'published', published_version: 1, has_unpublished_changes: false, step_count: 1 });
    expect(await cmd(['automations', 'publish', a.bare])).toMatchObject({ code: 1, stderr: `error: automation ${a.bare} has no trigger type: choose one (automations edit) before publishing\n` });
    await edit(a.bare, { trigger: { type: 'manual', label: 'By hand' } });
    expect((await cmd(['automations', 'publish', a.bare])).stderr).toMatch(/has no steps: add steps/);
    expect(await api(a.bare)).toMatchObject({ status: 'draft', published_version: 0 });
  });

  it('nothing to publish is refused', async () => {
    const r = await cmd(['automations', 'publish', a.refuse]);
    expect(r).toMatchObject({ code: 1, stderr: `error: automation ${a.refuse} is published and its draft has no unpublished changes: nothing to publish\n` });
  });

  it('a run keeps its pinned version after a re-publish; versions are immutable', async () => {
    const runId = uuidv7();
    await t.db.query(
      `insert into automation_runs (account_id, id, automation_id, contact_id, status, started_by, version) values ($1, $2, $3, $4, 'waiting', 'By hand', 1)`,
      [acme.id, runId, a.pinned, acme.contacts.ann],
    );
    const v1 = await t.db.query('select trigger, steps, run_only_if, published_at from automation_versions where automation_id = $1 and version = 1', [a.pinned]);
    expect((await edit(a.pinned, { steps: [{ id: 'w', name: 'Wait', type: 'wait', config: { duration: 'P2D' } }, ...STEPS] })).code).toBe(0);
    expect(await cmd(['automations', 'publish', a.pinned])).toMatchObject({ code: 0, stdout: `automation ${a.pinned} published as version 2\n` });
    expect(await api(a.pinned)).toMatchObject({
      status: 'published', published_version: 2, has_unpublished_changes: false, step_count: 3, step_types: ['wait', 'email.send', 'end'],
    });
    const run = await t.app.inject({ method: 'GET', url: `/v1/automation-runs/${runId}`, headers: bearer(acme.keys.main) });
    expect(run.json()).toMatchObject({ id: runId, version: 1, status: 'waiting' });
    const listed = await t.app.inject({ method: 'GET', url: `/v1/automations/${a.pinned}/runs`, headers: bearer(acme.keys.main) });
    expect(listed.json().data.map((r: { version: number }) => r.version)).toEqual([1]);
    expect(await t.db.query('select trigger, steps, run_only_if, published_at from automation_versions where automation_id = $1 and version = 1', [a.pinned])).toEqual(v1);
  });

  it('a paused automation gets the new version but stays paused until resumed', async () => {
    await edit(a.paused, { name: 'Paused v2' });
    // A name is not part of a version: nothing to publish.
    expect((await cmd(['automations', 'publish', a.paused])).stderr).toMatch(/is paused and its draft has no unpublished changes/);
    await edit(a.paused, { steps: [STEPS[1]] });
    expect(await cmd(['automations', 'publish', a.paused])).toMatchObject({ code: 0, stdout: `automation ${a.paused}: version 2 published; it stays paused until resumed\n` });
    expect(await api(a.paused)).toMatchObject({ status: 'paused', published_version: 2, step_types: ['end'] });
  });
});

describe('automations pause and resume', () => {
  it('published → paused → published, updated_at moving each time; impossible moves refused', async () => {
    const id = a.moves;
    const t0 = (await row(id)).updated_at;
    expect(await cmd(['automations', 'resume', id])).toMatchObject({ code: 1, stderr: `error: automation ${id} is already published (running): only a paused automation can be resumed\n` });
    expect(await cmd(['automations', 'pause', id])).toMatchObject({ code: 0, stdout: `automation ${id} paused; it takes no enrollments and its waiting runs are held until it is resumed\n` });
    const t1 = (await row(id)).updated_at;
    expect(t1.getTime()).toBeGreaterThan(t0.getTime());
    expect((await api(id)).status).toBe('paused');
    expect(await cmd(['automations', 'pause', id])).toMatchObject({ code: 1, stderr: `error: automation ${id} is already paused\n` });
    expect(await cmd(['automations', 'resume', id, '--account', acme.id])).toMatchObject({ code: 0, stdout: `automation ${id} resumed; published version 1 runs\n` });
    expect((await api(id)).status).toBe('published');
    expect(await cmd(['automations', 'pause', a.bare])).toMatchObject({ code: 1, stderr: `error: automation ${a.bare} is a draft: only a published automation can be paused\n` });
    expect(await cmd(['automations', 'resume', a.bare])).toMatchObject({ code: 1, stderr: `error: automation ${a.bare} is a draft: only a paused automation can be resumed (publish it instead)\n` });
    expect((await api(a.bare)).status).toBe('draft');
  });
});

describe('automation-runs stop', () => {
  it('a waiting run ends stopped with the reason; its waiting step ends skipped; then it cannot be stopped again', async () => {
    const runId = uuidv7();
    await t.db.query(
      `insert into automation_runs (account_id, id, automation_id, contact_id, status, started_by, version, next_at)
       values ($1, $2, $3, $4, 'waiting', 'By hand', 1, now() + interval '1 day')`,
      [acme.id, runId, a.moves, acme.contacts.ann],
    );
    await t.db.query(
      `insert into automation_run_steps (account_id, run_id, seq, step_id, name, type, status, started_at)
       values ($1, $2, 0, 't', 'By hand', 'trigger', 'ok', now()), ($1, $2, 1, 'w', 'Wait', 'wait', 'waiting', now())`,
      [acme.id, runId],
    );
    expect(await runOperatorCommand(t.db, ['automation-runs', 'stop', runId])).toMatchObject({ code: 0, stdout: `automation run ${runId} stopped; it sends nothing more\n` });
    const body = (await t.app.inject({ method: 'GET', url: `/v1/automation-runs/${runId}`, headers: bearer(acme.keys.main) })).json();
    expect(body).toMatchObject({ status: 'stopped', status_label: 'Stopped', error: 'Stopped by an operator', next_at: null });
    expect(body.finished_at).not.toBeNull();
    expect(body.steps.map((x: { step_id: string; status: string; error: string | null }) => [x.step_id, x.status, x.error])).toEqual([
      ['t', 'ok', null],
      ['w', 'skipped', 'Stopped by an operator'],
    ]);
    expect(await runOperatorCommand(t.db, ['automation-runs', 'stop', runId])).toMatchObject({
      code: 1, stderr: `error: automation run ${runId} is stopped: only a running or waiting run can be stopped\n`,
    });
  });

  it('refuses a finished run, an unknown one and one outside --account', async () => {
    const done = uuidv7();
    await t.db.query(`insert into automation_runs (account_id, id, automation_id, status, started_by, version) values ($1, $2, $3, 'succeeded', 'Schedule', 1)`, [acme.id, done, a.moves]);
    expect((await runOperatorCommand(t.db, ['automation-runs', 'stop', done])).stderr).toBe(`error: automation run ${done} is succeeded: only a running or waiting run can be stopped\n`);
    const unknown = uuidv7();
    expect(await runOperatorCommand(t.db, ['automation-runs', 'stop', unknown])).toMatchObject({ code: 1, stderr: `error: no automation run ${unknown}\n` });
    const other = s.other.id;
    expect((await runOperatorCommand(t.db, ['automation-runs', 'stop', done, '--account', other])).stderr).toBe(`error: no automation run ${done} in account ${other}\n`);
  });
});

describe('arguments', () => {
  it.each([
    [['automations'], /automations needs an action: create, export, edit, publish, pause or resume/],
    [['automations', 'delete', 'x'], /unknown automations action "delete"/],
    [['automations', 'publish'], /the automation id is required/],
    [['automations', 'pause', 'abc'], /the automation id must be a UUID, got "abc"/],
    [['automations', 'edit', '0190a8a0-0000-7000-8000-000000000000'], /the edit FILE is required/],
    [['automations', 'resume', '0190a8a0-0000-7000-8000-000000000000', '--account', 'nope'], /--account must be a UUID/],
    [['automation-runs'], /automation-runs needs an action: stop/],
    [['automation-runs', 'stop'], /the run id is required/],
    [['automation-runs', 'stop', '1', '2'], /unexpected argument "2"/],
  ])('%j → exit 2 with the usage', async (argv, message) => {
    const r = await runOperatorCommand(t.db, argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/Usage:/);
  });
});
