// DNS rebinding (issue 23): a page on http://rebind.attacker.example:PORT whose name rebinds to
// 127.0.0.1 reaches the hub from loopback, naming itself as Host and as Origin. The hub answers to
// its own origins only (SWITCHBOARD_PUBLIC_URL, SWITCHBOARD_HUB_ORIGINS, loopback and the address
// the connection arrived at, on the port it arrived on), never to whatever Host says: set-up from
// such a page needs the token, its state changes are refused, and a session cookie sent to a
// foreign host name is no session. Over a real socket as well as inject().
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configWith, loadConfig, type Config } from '../../src/config.js';
import { CSRF_HEADER, SESSION_COOKIE } from '../../src/domain/hub.js';
import { createApp } from '../../src/server.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, HUB_ORIGIN } from '../helpers/hub.js';
import { expectError, seed } from '../http/fixtures.js';

const EVIL_HOST = 'rebind.attacker.example:8080';
const EVIL = `http://${EVIL_HOST}`;
const BODY = { account_name: 'Acme', name: 'Olivia', email: 'olivia@acme.example', password: 'correct horse battery staple' };
const accounts = async (t: TestApp) => (await t.db.query<{ n: number }>(`select count(*)::int as n from accounts`))[0].n;

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});
afterEach(() => t?.close());

describe('first-run set-up from a rebound name (inject)', () => {
  it('asks a loopback peer for the token when its Host is not a loopback name', async () => {
    const get = (host: string) => t.app.inject({ method: 'GET', url: '/hub/api/setup', headers: { host } });
    expect((await get(EVIL_HOST)).json()).toEqual({ needed: true, token_required: true });
    for (const host of ['localhost', 'localhost:8080', '127.0.0.1:8080', '127.0.0.2', '[::1]:8080', 'LOCALHOST:1234']) {
      expect((await get(host)).json(), host).toEqual({ needed: true, token_required: false });
    }
    for (const host of ['localhost.attacker.example', '127.0.0.1.nip.io:8080', '10.0.0.5:8080', 'switchboard.lan']) {
      expect((await get(host)).json().token_required, host).toBe(true);
    }
  });

  it('refuses the rebound page itself: its Origin is not ours (403 csrf_failed), and nothing is set up', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/hub/api/setup', headers: { host: EVIL_HOST, origin: EVIL }, payload: BODY });
    const e = expectError(res, 403, 'permission', 'csrf_failed');
    // Words a person reads, naming what the operator can set.
    expect(e.message).toContain('http://rebind.attacker.example:8080');
    expect(e.message).toMatch(/SWITCHBOARD_PUBLIC_URL.*SWITCHBOARD_HUB_ORIGINS/);
    expect(await accounts(t)).toBe(0);
  });

  it('needs the token when the Host is foreign even with one of our Origins', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/hub/api/setup', headers: { host: EVIL_HOST, origin: HUB_ORIGIN }, payload: BODY });
    expectError(res, 403, 'permission', 'setup_token_required', 'setup_token');
    expect(await accounts(t)).toBe(0);
  });
});

describe('a session on a rebound name (inject)', () => {
  it('is no session: a valid cookie sent to a foreign Host answers as signed out, reads and writes alike', async () => {
    const s = await seed(t.db, { ref: 'acme', name: 'Acme', users: [{ ref: 'owner', email: 'o@acme.example', role: 'owner', password: null, name: '' }], keys: [] });
    const owner = await hubClient(t, { accountId: s.acme.id, userId: s.acme.users.owner, email: 'o@acme.example' });
    expect((await owner.get('/hub/api/keys')).statusCode).toBe(200);
    expectError(await owner.request({ method: 'GET', url: '/hub/api/keys', headers: { host: EVIL_HOST } }), 401, 'authentication', 'not_signed_in');
    expectError(await owner.request({ method: 'GET', url: '/hub/api/session', headers: { host: EVIL_HOST } }), 401, 'authentication', 'not_signed_in');
    const create = await owner.request({ method: 'POST', url: '/hub/api/keys', headers: { host: EVIL_HOST, origin: EVIL }, payload: { name: 'stolen', scopes: ['workflows:read'] } });
    expectError(create, 401, 'authentication', 'not_signed_in');
    expect(await t.db.query(`select 1 from api_keys where name = 'stolen'`)).toEqual([]);
    // Its own Host name is fine, with or without a port.
    for (const host of ['localhost', '127.0.0.1:8080', '[::1]']) {
      expect((await owner.request({ method: 'GET', url: '/hub/api/keys', headers: { host } })).statusCode, host).toBe(200);
    }
  });
});

describe('the hub\'s own origins', () => {
  const base = loadConfig({});
  const withConfig = async (cfg: Partial<Config>, fn: (app: TestApp['app']) => Promise<void>) => {
    const app = await createApp(configWith({ rateLimitStore: 'memory', ...cfg }), t.db);
    try {
      await fn(app);
    } finally {
      await app.close();
    }
  };
  // A new email each time, from addresses of its own: the sign-in throttle stays out of the way.
  let n = 0;
  const signInFrom = (app: TestApp['app'], origin: string, host = 'localhost:8080') => {
    n += 1;
    return app.inject({ method: 'POST', url: '/hub/api/session', remoteAddress: `127.0.1.${n}`, headers: { origin, host }, payload: { email: `nobody${n}@acme.example`, password: 'wrong password!' } });
  };

  it('are loopback on the listening port, the public URL and SWITCHBOARD_HUB_ORIGINS; nothing the Host says', async () => {
    await withConfig(
      { delivery: { ...base.delivery, publicUrl: 'https://hub.example.com', publicUrlSet: true }, hubOrigins: ['http://switchboard.lan:8080'] },
      async (app) => {
        // 401: past the Origin check, refused for the password.
        for (const o of ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080', 'HTTP://LocalHost:8080', 'https://hub.example.com', 'https://hub.example.com:443', 'http://switchboard.lan:8080']) {
          const res = await signInFrom(app, o);
          expect(res.statusCode, o).toBe(401);
          expectError(res, 401, 'authentication', 'sign_in_failed');
        }
        for (const [o, host] of [
          ['http://localhost:8081', 'localhost:8081'],
          ['http://localhost', 'localhost'],
          ['https://localhost:8080', 'localhost:8080'],
          ['http://hub.example.com', 'hub.example.com'],
          ['http://switchboard.lan:9000', 'switchboard.lan:9000'],
          [EVIL, EVIL_HOST],
          ['null', 'localhost:8080'],
          ['http://127.0.0.1:8080/path', 'localhost:8080'],
        ]) {
          const res = await signInFrom(app, o, host);
          expect(res.statusCode, o).toBe(403);
          expectError(res, 403, 'permission', 'csrf_failed');
        }
      },
    );
  });

  it('honour a session cookie on the public URL\'s and SWITCHBOARD_HUB_ORIGINS\' host names', async () => {
    const s = await seed(t.db, { ref: 'acme', name: 'Acme', users: [{ ref: 'owner', email: 'o@acme.example', role: 'owner', password: null, name: '' }], keys: [] });
    const owner = await hubClient(t, { accountId: s.acme.id, userId: s.acme.users.owner, email: 'o@acme.example' });
    await withConfig(
      { delivery: { ...base.delivery, publicUrl: 'https://hub.example.com', publicUrlSet: true }, hubOrigins: ['http://switchboard.lan:8080'] },
      async (app) => {
        const get = (host: string) => app.inject({ method: 'GET', url: '/hub/api/keys', headers: { host, cookie: `${SESSION_COOKIE}=${owner.token}` } });
        expect((await get('hub.example.com')).statusCode).toBe(200);
        expect((await get('switchboard.lan:8080')).statusCode).toBe(200);
        expectError(await get('other.example.com'), 401, 'authentication', 'not_signed_in');
        const write = await app.inject({
          method: 'PATCH',
          url: '/hub/api/settings',
          headers: { host: 'switchboard.lan:8080', origin: 'http://switchboard.lan:8080', cookie: `${SESSION_COOKIE}=${owner.token}`, [CSRF_HEADER]: owner.csrf },
          payload: { name: 'Acme (LAN)' },
        });
        expect(write.statusCode, write.body).toBe(200);
      },
    );
  });

});

/** A request over a real socket to 127.0.0.1:port, with whatever Host the test names. */
function send(port: number, opts: { method: string; path: string; host: string; headers?: Record<string, string>; body?: unknown }) {
  return new Promise<{ status: number; json: Record<string, unknown>; setCookie: string[] }>((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method,
        path: opts.path,
        headers: { host: opts.host, ...(payload ? { 'content-type': 'application/json' } : {}), ...(opts.headers ?? {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += String(d)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : {}, setCookie: [res.headers['set-cookie'] ?? []].flat() }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('over a real socket (the port really listened on)', () => {
  it('the rebound page cannot set up, nor use a session; the operator\'s own browser can', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const evilHost = `rebind.attacker.example:${port}`;
    const evil = `http://${evilHost}`;

    expect((await send(port, { method: 'GET', path: '/hub/api/setup', host: evilHost })).json).toEqual({ needed: true, token_required: true });
    const refused = await send(port, { method: 'POST', path: '/hub/api/setup', host: evilHost, headers: { origin: evil }, body: BODY });
    expect(refused.status).toBe(403);
    expect((refused.json.error as { code: string }).code).toBe('csrf_failed');
    expect(await accounts(t)).toBe(0);
    // The loopback origins are on the port really listened on, not the configured PORT.
    const wrongPort = await send(port, { method: 'POST', path: '/hub/api/setup', host: `127.0.0.1:${port}`, headers: { origin: 'http://127.0.0.1:8080' }, body: BODY });
    expect((wrongPort.json.error as { code: string }).code).toBe('csrf_failed');

    expect((await send(port, { method: 'GET', path: '/hub/api/setup', host: `localhost:${port}` })).json).toEqual({ needed: true, token_required: false });
    const ok = await send(port, { method: 'POST', path: '/hub/api/setup', host: `127.0.0.1:${port}`, headers: { origin: `http://127.0.0.1:${port}` }, body: BODY });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    const cookie = ok.setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    const csrf = ok.json.csrf_token as string;

    // The same cookie through the rebound name: no session, so no key is made or read.
    const keys = await send(port, { method: 'GET', path: '/hub/api/keys', host: evilHost, headers: { cookie } });
    expect(keys.status).toBe(401);
    const make = await send(port, { method: 'POST', path: '/hub/api/keys', host: evilHost, headers: { cookie, origin: evil, [CSRF_HEADER]: csrf }, body: { name: 'stolen', scopes: ['workflows:read'] } });
    expect(make.status).toBe(401);
    expect(await t.db.query(`select 1 from api_keys`)).toEqual([]);
    // From its own page it works.
    const own = await send(port, { method: 'POST', path: '/hub/api/keys', host: `localhost:${port}`, headers: { cookie, origin: `http://localhost:${port}`, [CSRF_HEADER]: csrf }, body: { name: 'mine', scopes: ['workflows:read'] } });
    expect(own.status, JSON.stringify(own.json)).toBe(201);
  });
});

describe('the address a connection arrived at', () => {
  it('is one of ours on the port it arrived on (an address typed into a browser cannot be rebound)', async () => {
    const app = await createApp(configWith({ rateLimitStore: 'memory' }), t.db);
    try {
      await app.listen({ port: 0, host: '127.0.0.3' });
      const port = (app.server.address() as AddressInfo).port;
      const signIn = (origin: string) =>
        new Promise<number>((resolve, reject) => {
          const req = http.request(
            { host: '127.0.0.3', port, method: 'POST', path: '/hub/api/session', headers: { host: `127.0.0.3:${port}`, origin, 'content-type': 'application/json' } },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          req.on('error', reject);
          req.end(JSON.stringify({ email: `n${origin.length}@acme.example`, password: 'wrong password!' }));
        });
      expect(await signIn(`http://127.0.0.3:${port}`)).toBe(401); // past the Origin check
      expect(await signIn(`http://127.0.0.4:${port}`)).toBe(403);
      expect(await signIn(`http://127.0.0.3:${port + 1}`)).toBe(403);
    } finally {
      await app.close();
    }
  });
});
