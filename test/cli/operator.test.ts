// cursor-secret, migrate, the dispatcher both paths share, and main()'s usage handling.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CURSOR_SECRET as CLI_CURSOR_SECRET, cursorSecretCommand } from '../../src/cli/cursor-secret.js';
import { migrateCommand } from '../../src/cli/migrate.js';
import { checkOperatorArgs, filesContext, readInputFiles, runOperatorCommand } from '../../src/cli/operator.js';
import { loadSecrets } from '../../src/secrets/store.js';
import { CURSOR_SECRET } from '../../src/server.js';
import { main } from '../../src/main.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { makeAccount, memoryContext } from './support.js';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t?.close());

describe('cursor-secret rotate', () => {
  it('uses the purpose name the server reads', () => {
    expect(CLI_CURSOR_SECRET).toBe(CURSOR_SECRET);
  });

  it('adds a new current version, keeps the previous one, and says a restart picks it up', async () => {
    const before = await loadSecrets(t.db, CURSOR_SECRET);
    const r = await cursorSecretCommand(t.db, ['rotate']);
    expect(r.code, r.stderr).toBe(0);
    const after = await loadSecrets(t.db, CURSOR_SECRET);
    expect(after[0].version).toBe(before[0].version + 1);
    expect(after[1].secret.equals(before[0].secret)).toBe(true);
    expect(r.stdout).toMatch(`version ${after[0].version} is current`);
    expect(r.stdout).toMatch(/restart/);
    const viaServer = await cursorSecretCommand(t.db, ['rotate'], memoryContext({}, 'server'));
    expect(viaServer.stdout).toMatch(/running server keeps signing with the previous secret until it is restarted/);
  });

  it('refuses anything but rotate', async () => {
    expect((await cursorSecretCommand(t.db, [])).code).toBe(2);
    expect((await cursorSecretCommand(t.db, ['show'])).stderr).toMatch(/unknown cursor-secret action "show"/);
    expect((await cursorSecretCommand(t.db, ['rotate', '--now'])).stderr).toMatch(/unknown option --now/);
  });
});

describe('migrate', () => {
  it('reports nothing to apply on a migrated store, and the server wording through the socket', async () => {
    const local = await migrateCommand(t.db, []);
    expect(local).toMatchObject({ code: 0, stderr: '' });
    expect(local.stdout).toMatch(/^nothing to apply; schema version \d+/);
    const server = await migrateCommand(t.db, [], memoryContext({}, 'server'));
    expect(server.stdout).toMatch(/^already migrated by the running server \(schema version \d+\)/);
    expect((await migrateCommand(t.db, ['--force'])).code).toBe(2);
  });
});

describe('runOperatorCommand', () => {
  it('dispatches by name and refuses what is not an operator command', async () => {
    const a = await makeAccount(t.db);
    const r = await runOperatorCommand(t.db, ['account', 'show', '--account', a.id, '--json']);
    expect(JSON.parse(r.stdout).id).toBe(a.id);
    expect((await runOperatorCommand(t.db, ['serve'])).code).toBe(2);
    expect((await runOperatorCommand(t.db, ['__proto__'])).code).toBe(2);
  });

  it('checks arguments without a store', () => {
    expect(checkOperatorArgs(['keys', 'list', '--account', 'x'])?.code).toBe(2);
    expect(checkOperatorArgs(['keys', 'list', '--account', '0190a8a0-0000-7000-8000-000000000000'])).toBeNull();
  });

  it('turns an unforeseen failure into exit 1 with a message', async () => {
    const broken = { ...t.db, query: async () => { throw new Error('store unreachable'); } } as unknown as typeof t.db;
    const r = await runOperatorCommand(broken, ['account', 'show', '--account', '0190a8a0-0000-7000-8000-000000000000']);
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: account failed: store unreachable\n' });
  });

  it('reads seed FILE on the client side and serves only what was sent', async () => {
    const files = await readInputFiles(['seed', '/definitely/not/here.json'], '/');
    expect(files['/definitely/not/here.json']).toEqual({ error: 'cannot read /definitely/not/here.json: no such file' });
    expect(await readInputFiles(['keys', 'list'], '/')).toEqual({});
    const ctx = filesContext({ 'a.json': { text: '{}' } }, 'server');
    expect(await ctx.readFile('a.json')).toBe('{}');
    await expect(ctx.readFile('/etc/passwd')).rejects.toThrow(/was not sent/);
    const r = await runOperatorCommand(t.db, ['seed', '/definitely/not/here.json'], filesContext(files, 'server'));
    expect(r).toMatchObject({ code: 1, stderr: 'error: cannot read /definitely/not/here.json: no such file\n' });
  });
});

describe('main', () => {
  function capture() {
    const out: string[] = [];
    const err: string[] = [];
    const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
    const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
    return {
      out: () => out.join(''),
      err: () => err.join(''),
      restore: () => {
        o.mockRestore();
        e.mockRestore();
      },
    };
  }

  it.each([
    [[], 2, /no command given/],
    [['frobnicate'], 2, /unknown command "frobnicate"/],
    [['serve', '--role', 'web'], 2, /--role must be one of api, worker, all/],
    [['serve', '--port', '80'], 2, /unknown option --port/],
    [['keys', 'create', '--account', 'nope'], 2, /--account must be a UUID/],
    [['account', 'set', '--account', '0190a8a0-0000-7000-8000-000000000000'], 2, /at least one field/],
  ])('%j exits %i with usage on stderr, before touching a store', async (argv, code, message) => {
    const c = capture();
    try {
      expect(await main(argv)).toBe(code);
    } finally {
      c.restore();
    }
    expect(c.err()).toMatch(message);
    expect(c.err()).toMatch(/Usage/);
    expect(c.out()).toBe('');
  });

  it('prints help on stdout with exit 0', async () => {
    const c = capture();
    try {
      expect(await main(['help'])).toBe(0);
      expect(await main(['keys', '--help'])).toBe(0);
      expect(await main(['help', 'serve'])).toBe(0);
    } finally {
      c.restore();
    }
    expect(c.out()).toMatch(/Usage: switchboard <command>/);
    expect(c.out()).toMatch(/switchboard keys set-cap/);
    expect(c.out()).toMatch(/serve the HTTP API and run the engine/);
    expect(c.err()).toBe('');
  });
});
