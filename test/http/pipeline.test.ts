// The onRequest pipeline (docs/architecture.md §6.1) through inject(): request ids, no CORS, early
// access, authentication, routing (404/405), account state, scope, bodies and internal errors. Rate
// limits and the failed-auth throttle are in pipeline-limits.test.ts.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { generateKey } from '../../src/lib/api-keys.js';
import { revokeAccountKey } from '../../src/services/keys/manage.js';
import { OPERATOR } from '../../src/services/audit/service.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, expectNoCors, seed, UUID_RE } from './fixtures.js';

let t: TestApp;
let acme: AccountSeedResult;
let accts: Record<string, AccountSeedResult>;
let wf = '';

// Each request comes from its own address unless a test says otherwise, so the many 401s here
// never add up to the failed-auth throttle (tested on its own).
let n = 0;
const nextIp = () => `10.20.${Math.floor(n / 250)}.${(n++ % 250) + 1}`;
const req = (o: InjectOptions) => t.app.inject({ remoteAddress: nextIp(), ...o });
const get = (url: string, key?: string, headers: Record<string, string> = {}) =>
  req({ method: 'GET', url, headers: { ...(key ? bearer(key) : {}), ...headers } });

const PAST = '2020-01-01T00:00:00Z';

beforeAll(async () => {
  t = await testApp();
  accts = await seed(
    t.db,
    account('acme', {
      keys: [
        { ref: 'main' },
        { ref: 'other', scopes: ['contacts:read', 'usage:read'] },
        { ref: 'none', scopes: [] },
        { ref: 'revoked', revoked: true },
        { ref: 'expired', expires_at: PAST },
        { ref: 'temp' },
        { ref: 'tiny' },
      ],
      limits: { requests_per_minute: 1 },
      workflows: [{ ref: 'w' }],
    }),
    account('team', { workflows: [{ ref: 'w' }], keys: [{}, { ref: 'future', expires_at: '2099-01-01T00:00:00Z' }] }),
    account('closedapi', { api_open: false, workflows: [{ ref: 'w' }] }),
    account('susp', { state: 'suspended', keys: [{}, { ref: 'revoked', revoked: true }, { ref: 'noscope', scopes: [] }] }),
    account('closed', { state: 'closed', keys: [{}, { ref: 'revoked', revoked: true }] }),
    account('lapsed', { subscription: 'lapsed', workflows: [{ ref: 'w' }] }),
    account('ended', { subscription: 'ended', workflows: [{ ref: 'w' }] }),
  );
  acme = accts.acme;
  wf = accts.team.workflows.w;
});
afterAll(() => t?.close());

const teamKey = () => accts.team.keys.main;

describe('X-Request-Id', () => {
  it('is on every kind of answer, equals the error body request_id, and is unique per request', async () => {
    const answers = [
      [await get('/v1/workflows', teamKey()), 200],
      [await get('/v1/workflows'), 401],
      [await get('/v1/nothing-here', teamKey()), 404],
      [await get('/nothing-here'), 404],
      [await req({ method: 'POST', url: '/v1/workflows', headers: bearer(teamKey()) }), 405],
      [await get('/v1/workflows?limit=0', teamKey()), 400],
      [await get('/healthz'), 200],
      [await get('/openapi.json'), 200],
    ] as const;
    // 429: acme's limit override is 1 request a minute for its `tiny` key
    // (a minute boundary between two requests restarts the count, hence up to three tries)
    const first = await get('/v1/workflows', acme.keys.tiny);
    let limited = await get('/v1/workflows', acme.keys.tiny);
    if (limited.statusCode !== 429) limited = await get('/v1/workflows', acme.keys.tiny);
    expect(limited.statusCode).toBe(429);
    const ids: string[] = [];
    for (const [res, status] of [...answers, [first, 200], [limited, 429]] as const) {
      expect(res.statusCode).toBe(status);
      const id = res.headers['x-request-id'];
      expect(typeof id).toBe('string');
      expect(id).toMatch(UUID_RE);
      if (status >= 400) expect(res.json().error.request_id).toBe(id);
      ids.push(id as string);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("never takes the caller's X-Request-Id", async () => {
    const res = await get('/v1/workflows', teamKey(), { 'x-request-id': 'caller-chosen-id' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).not.toBe('caller-chosen-id');
    expect(res.headers['x-request-id']).toMatch(UUID_RE);
  });
});

describe('CORS', () => {
  const origin = { origin: 'https://app.example', 'access-control-request-method': 'GET' };

  it('sends no access-control-* header on answers to a browser origin', async () => {
    for (const res of [
      await get('/v1/workflows', teamKey(), origin),
      await get('/v1/workflows', undefined, origin),
      await get('/v1/nope', teamKey(), origin),
      await get('/healthz', undefined, origin),
    ]) {
      expectNoCors(res);
    }
  });

  it('answers an OPTIONS preflight 405 with Allow and no CORS headers', async () => {
    for (const url of ['/v1/workflows', `/v1/workflows/${wf}`]) {
      const res = await req({ method: 'OPTIONS', url, headers: { ...bearer(teamKey()), ...origin } });
      expectError(res, 405, 'invalid_request', 'method_not_allowed');
      expect(res.headers.allow).toBe('GET');
      expectNoCors(res);
    }
    // a real preflight carries no key: authentication comes first, still no CORS
    const bare = await req({ method: 'OPTIONS', url: '/v1/workflows', headers: origin });
    expectError(bare, 401, 'authentication', 'invalid_api_key');
    expectNoCors(bare);
  });
});

describe('early access', () => {
  describe('deployment-wide (apiOpen=false)', () => {
    let closed: TestApp;
    let x: AccountSeedResult;
    beforeAll(async () => {
      closed = await testApp({ apiOpen: false });
      ({ x } = await seed(closed.db, account('x', { workflows: [{ ref: 'w' }] })));
    });
    afterAll(() => closed?.close());
    const send = (o: InjectOptions) => closed.app.inject({ remoteAddress: nextIp(), ...o });

    it('every /v1 request is 404 api_not_available, before authentication', async () => {
      const cases: InjectOptions[] = [
        { method: 'GET', url: '/v1/workflows' },
        { method: 'GET', url: '/v1/workflows', headers: bearer('garbage') },
        { method: 'GET', url: '/v1/workflows', headers: bearer(x.keys.main) },
        { method: 'GET', url: `/v1/workflows/${x.workflows.w}`, headers: bearer(x.keys.main) },
        { method: 'GET', url: '/v1/unknown', headers: bearer(x.keys.main) },
        { method: 'POST', url: '/v1/workflows' },
      ];
      for (const c of cases) expectError(await send(c), 404, 'not_found', 'api_not_available');
    });

    it('also when the /v1 prefix is percent-encoded', async () => {
      for (const headers of [{}, bearer(x.keys.main)]) {
        expectError(await send({ method: 'GET', url: '/%761/workflows', headers }), 404, 'not_found', 'api_not_available');
      }
    });
  });

  it('per account (api_open=false): 404 api_not_available after authentication', async () => {
    const key = accts.closedapi.keys.main;
    expectError(await get('/v1/workflows', key), 404, 'not_found', 'api_not_available');
    expectError(await get(`/v1/workflows/${accts.closedapi.workflows.w}`, key), 404, 'not_found', 'api_not_available');
    expectError(await get('/v1/unknown', key), 404, 'not_found', 'api_not_available');
    // a bad key is still refused as such: the account switch needs an account
    expectError(await get('/v1/workflows', generateKey().value), 401, 'authentication', 'invalid_api_key');
    expectError(await get('/v1/workflows'), 401, 'authentication', 'invalid_api_key');
  });
});

describe('authentication', () => {
  const valid = () => teamKey();
  const lastCharChanged = (k: string) => k.slice(0, -1) + (k.endsWith('A') ? 'B' : 'A');

  it.each([
    ['no Authorization header', {}],
    ['an empty header', { authorization: '' }],
    ['a Basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['the key without a scheme', 'raw'],
    ['a Token scheme', 'token'],
    ['Bearer and nothing', { authorization: 'Bearer ' }],
    ['a malformed key', { authorization: 'Bearer svc_live_short' }],
    ['another prefix', { authorization: 'Bearer sk_live_0123456789abcdefghijklmnopqrstuvwxyz01' }],
    ['two keys', 'two'],
  ] as const)('%s → 401 invalid_api_key', async (_name, h) => {
    const headers =
      h === 'raw' ? { authorization: valid() } : h === 'token' ? { authorization: `Token ${valid()}` } : h === 'two' ? { authorization: `Bearer ${valid()} ${valid()}` } : h;
    expectError(await get('/v1/workflows', undefined, headers), 401, 'authentication', 'invalid_api_key');
  });

  it('a key with a wrong checksum (last character changed) → 401 invalid_api_key', async () => {
    const bad = lastCharChanged(valid());
    expect(bad).not.toBe(valid());
    expectError(await get('/v1/workflows', bad), 401, 'authentication', 'invalid_api_key');
  });

  it('an unknown well-formed key → 401 invalid_api_key', async () => {
    expectError(await get('/v1/workflows', generateKey().value), 401, 'authentication', 'invalid_api_key');
    expectError(await get(`/v1/workflows/${wf}`, generateKey().value), 401, 'authentication', 'invalid_api_key');
  });

  it('a revoked key → 401 api_key_revoked; an expired key → 401 api_key_expired', async () => {
    expectError(await get('/v1/workflows', acme.keys.revoked), 401, 'authentication', 'api_key_revoked');
    expectError(await get('/v1/workflows', acme.keys.expired), 401, 'authentication', 'api_key_expired');
  });

  it('a key with an expiry date still to come works', async () => {
    expect((await get('/v1/workflows', accts.team.keys.future)).statusCode).toBe(200);
  });

  it('revocation acts from the very next request', async () => {
    expect((await get('/v1/workflows', acme.keys.temp)).statusCode).toBe(200);
    // Through the service every revocation uses: it invalidates the key cache after its commit.
    expect((await revokeAccountKey(t.db, acme.id, acme.key_ids.temp, OPERATOR)).changed).toBe(true);
    expectError(await get('/v1/workflows', acme.keys.temp), 401, 'authentication', 'api_key_revoked');
  });

  // The router decodes %76 to "v": the pipeline must not be skipped for a path that reaches a /v1
  // route, or authentication, scope and rate limit are bypassed.
  it.each(['/%761/workflows', '/v%31/workflows', '/%76%31/workflows/{wf}'])('a percent-encoded /v1 path (%s) goes through the whole pipeline', async (raw) => {
    const url = raw.replace('{wf}', wf);
    expectError(await get(url), 401, 'authentication', 'invalid_api_key');
    expectError(await get(url, generateKey().value), 401, 'authentication', 'invalid_api_key');
    expectError(await get(url, acme.keys.other), 403, 'permission', 'insufficient_scope');
    expectError(await get(url, accts.susp.keys.main), 403, 'permission', 'account_suspended');
    const ok = await get(url, teamKey());
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['ratelimit-limit']).toBe('120');
  });

  it('authentication comes before routing: an unknown /v1 path without a key is 401', async () => {
    expectError(await get('/v1/nothing-here'), 401, 'authentication', 'invalid_api_key');
  });
});

describe('routing', () => {
  it('unknown paths → 404 route_not_found, under /v1 (with a valid key) and outside it', async () => {
    for (const url of ['/v1/nothing-here', '/v1', '/v1/workflows/a/b/c', '/v1/runs']) {
      expectError(await get(url, teamKey()), 404, 'not_found', 'route_not_found');
    }
    for (const url of ['/nothing-here', '/v2/workflows', '/']) {
      expectError(await get(url), 404, 'not_found', 'route_not_found');
    }
  });

  // The router refuses these before any hook: they must still be the spec's error with a request id.
  it.each(['/v1/%', '/v1/workflows/%E0%A4%A', '/%'])('an undecodable path (%s) → a catalogued 400/404 error with X-Request-Id', async (url) => {
    const res = await get(url, teamKey());
    expect(res.headers['x-request-id']).toMatch(UUID_RE);
    const code = res.json().error?.code;
    expect(['route_not_found', 'invalid_id']).toContain(code);
    if (code === 'route_not_found') expectError(res, 404, 'not_found', 'route_not_found');
    else expectError(res, 400, 'invalid_request', 'invalid_id', 'id');
  });

  it('an over-long path id → 400 invalid_id (param id) with X-Request-Id', async () => {
    const res = await get(`/v1/workflows/${'a'.repeat(500)}`, teamKey());
    expectError(res, 400, 'invalid_request', 'invalid_id', 'id');
  });

  it.each(['POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'] as const)('%s on a GET-only path → 405 with Allow: GET', async (method) => {
    for (const url of ['/v1/workflows', `/v1/workflows/${wf}`]) {
      const res = await req({ method, url, headers: bearer(teamKey()) });
      expectError(res, 405, 'invalid_request', 'method_not_allowed');
      expect(res.headers.allow).toBe('GET');
    }
  });
});

describe('account state', () => {
  it('suspended → 403 account_suspended; closed → 403 account_closed', async () => {
    for (const url of ['/v1/workflows', `/v1/workflows/${wf}`]) {
      expectError(await get(url, accts.susp.keys.main), 403, 'permission', 'account_suspended');
      expectError(await get(url, accts.closed.keys.main), 403, 'permission', 'account_closed');
    }
  });

  it('comes after authentication: a revoked key of a suspended or closed account is still 401', async () => {
    expectError(await get('/v1/workflows', accts.susp.keys.revoked), 401, 'authentication', 'api_key_revoked');
    expectError(await get('/v1/workflows', accts.closed.keys.revoked), 401, 'authentication', 'api_key_revoked');
  });

  it('comes before scope: a suspended account key without the scope gets account_suspended', async () => {
    expectError(await get('/v1/workflows', accts.susp.keys.noscope), 403, 'permission', 'account_suspended');
  });

  it('a lapsed or ended plan still reads (subscription_inactive is for writes only)', async () => {
    for (const a of [accts.lapsed, accts.ended]) {
      const list = await get('/v1/workflows', a.keys.main);
      expect(list.statusCode).toBe(200);
      expect(list.json().data.map((w: { id: string }) => w.id)).toEqual([a.workflows.w]);
      expect((await get(`/v1/workflows/${a.workflows.w}`, a.keys.main)).statusCode).toBe(200);
    }
  });
});

describe('scope', () => {
  it('a key without workflows:read → 403 insufficient_scope naming the scope', async () => {
    for (const key of [acme.keys.other, acme.keys.none]) {
      for (const url of ['/v1/workflows', `/v1/workflows/${acme.workflows.w}`]) {
        const e = expectError(await get(url, key), 403, 'permission', 'insufficient_scope');
        expect(e.message).toContain('workflows:read');
      }
    }
  });
});

describe('request bodies on routes that take none', () => {
  const h = () => ({ ...bearer(teamKey()) });

  it('GET ignores a body of any type (the list answers as usual)', async () => {
    const bodies: Array<[string, string]> = [
      ['text/plain', 'hello'],
      ['application/json', '{not json'],
      ['application/json', JSON.stringify({ big: 'x'.repeat(1_100_000) })],
    ];
    for (const [type, payload] of bodies) {
      const res = await req({ method: 'GET', url: '/v1/workflows', headers: { ...h(), 'content-type': type }, payload });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toHaveLength(1);
    }
  });

  // Routing (docs/architecture.md §6.1 step 4) comes before body validation (step 8): a method the
  // path does not have is 405 whatever its body, and an unknown path is 404.
  it.each([
    ['a text/plain body', 'text/plain', 'hello'],
    ['malformed JSON', 'application/json', '{not json'],
    ['a body over 1 MiB', 'application/json', JSON.stringify({ big: 'x'.repeat(1_100_000) })],
  ])('POST with %s to a GET-only path → 405 method_not_allowed', async (_name, type, payload) => {
    const res = await req({ method: 'POST', url: '/v1/workflows', headers: { ...h(), 'content-type': type }, payload });
    expectError(res, 405, 'invalid_request', 'method_not_allowed');
    expect(res.headers.allow).toBe('GET');
  });

  it('POST with a non-JSON body to an unknown path → 404 route_not_found', async () => {
    const res = await req({ method: 'POST', url: '/v1/nothing-here', headers: { ...h(), 'content-type': 'text/plain' }, payload: 'x' });
    expectError(res, 404, 'not_found', 'route_not_found');
  });
});

describe('internal errors', () => {
  it('a failing store → 500 api_error internal_error with the request id and no details', async () => {
    const broken = await testApp();
    try {
      const [a] = Object.values(await seed(broken.db, account('x', { workflows: [{ ref: 'w' }] })));
      const ok = await broken.app.inject({ method: 'GET', url: '/v1/workflows', headers: bearer(a.keys.main) });
      expect(ok.statusCode).toBe(200);
      // the handler's query fails
      await broken.db.query('alter table workflows rename to workflows_gone');
      const inHandler = await broken.app.inject({ method: 'GET', url: '/v1/workflows', headers: bearer(a.keys.main) });
      // the pipeline's own query (authentication) fails
      await broken.db.query('alter table api_keys rename to api_keys_gone');
      const inPipeline = await broken.app.inject({ method: 'GET', url: '/v1/workflows', headers: bearer(a.keys.main) });
      for (const res of [inHandler, inPipeline]) {
        const e = expectError(res, 500, 'api_error', 'internal_error');
        expect(e.message).not.toMatch(/relation|exist|select|workflows|api_keys|sql|error:|\bat\b.*\(/i);
        expect(res.body).not.toMatch(/stack|relation|workflows_gone|api_keys/i);
      }
    } finally {
      await broken.close();
    }
  });
});
