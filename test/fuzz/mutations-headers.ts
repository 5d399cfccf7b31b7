// Mutations of the headers: missing, malformed, unknown, revoked, expired, narrow and foreign API
// keys, keys of held accounts, a spoofed request id, and Idempotency-Key missing, malformed,
// replayed or reused for another request.
import { generateKey } from '../../src/lib/api-keys.js';
import { uuidPathParams, isWrite, fingerprintOf, type Mutation } from './mutation-kit.js';

export const HEADER_MUTATIONS: Mutation[] = [
  // ---- authentication ----
  {
    name: 'auth-missing',
    weight: 1,
    applies: () => true,
    apply: (r) => {
      delete r.headers.authorization;
      r.expect = { status: 401, code: 'invalid_api_key' };
    },
  },
  {
    name: 'auth-malformed',
    weight: 1,
    applies: () => true,
    apply: (r, c) => {
      const k = c.world.keys.main;
      r.headers.authorization = c.rng.pick([`Basic ${k}`, 'Bearer', 'Bearer ', `Bearer ${k.slice(0, -1)}`, `Bearer ${k}x`, `Bearer ${k} extra`, `Token ${k}`, `Bearer svc_test_${k.slice(9)}`, `Bearer ${k.toUpperCase()}`, `Bearer\t${k}x`]);
      r.expect = { status: 401, code: 'invalid_api_key' };
    },
  },
  {
    name: 'auth-unknown-key',
    weight: 1,
    applies: () => true,
    apply: (r) => {
      r.headers.authorization = `Bearer ${generateKey().value}`;
      r.expect = { status: 401, code: 'invalid_api_key' };
    },
  },
  {
    name: 'auth-revoked-key',
    weight: 1,
    applies: () => true,
    apply: (r, c) => {
      r.headers.authorization = `Bearer ${c.world.keys.revoked}`;
      r.expect = { status: 401, code: 'api_key_revoked' };
    },
  },
  {
    name: 'auth-expired-key',
    weight: 1,
    applies: () => true,
    apply: (r, c) => {
      r.headers.authorization = `Bearer ${c.world.keys.expired}`;
      r.expect = { status: 401, code: 'api_key_expired' };
    },
  },
  {
    name: 'auth-other-scope',
    weight: 1,
    applies: (r) => r.op.id !== 'getUsage', // the narrow key's one scope
    apply: (r, c) => {
      r.headers.authorization = `Bearer ${c.world.keys.narrow}`;
      r.expect = { status: 403, code: 'insufficient_scope' };
    },
  },
  {
    name: 'auth-suspended-account',
    weight: 1,
    applies: () => true,
    apply: (r, c) => {
      r.headers.authorization = `Bearer ${c.world.keys.suspended}`;
      r.expect = { status: 403, code: 'account_suspended' };
    },
  },
  {
    name: 'auth-lapsed-account',
    weight: 1,
    applies: () => true,
    apply: (r, c) => {
      r.headers.authorization = `Bearer ${c.world.keys.lapsed}`;
      if (isWrite(r)) r.expect = { status: 403, code: 'subscription_inactive' };
    },
  },
  {
    name: 'auth-other-account-key',
    weight: 1,
    applies: () => true,
    apply: (r, c) => {
      r.headers.authorization = `Bearer ${c.world.keys.other}`;
      // Every id in the path is the fuzzed account's: to the other account it is unknown.
      if (uuidPathParams(r).length > 0 && !r.query.some(([k]) => k === 'cursor')) r.expect = { status: 404, code: 'resource_not_found' };
    },
  },
  {
    name: 'failed-auth-from-one-address',
    weight: 1,
    applies: () => true,
    apply: (r, _c) => {
      r.remoteAddress = '127.0.0.99';
      r.headers.authorization = `Bearer ${generateKey().value}`;
    },
  },
  {
    name: 'spoofed-request-id',
    weight: 1,
    applies: () => true,
    apply: (r, c) => {
      r.headers['x-request-id'] = c.rng.pick(['evil', '00000000-0000-0000-0000-000000000000', 'a'.repeat(200)]);
    },
  },
  // ---- Idempotency-Key ----
  {
    name: 'idempotency-key-missing',
    weight: 2,
    applies: (r) => 'idempotency-key' in r.headers,
    apply: (r) => {
      delete r.headers['idempotency-key'];
      const p = r.op.params.find((x) => x.in === 'header' && x.name.toLowerCase() === 'idempotency-key');
      if (p?.required) r.expect = { status: 400, code: 'missing_idempotency_key', param: 'Idempotency-Key' };
    },
  },
  {
    name: 'idempotency-key-malformed',
    weight: 2,
    applies: (r) => r.op.params.some((x) => x.in === 'header' && x.name.toLowerCase() === 'idempotency-key'),
    apply: (r, c) => {
      r.headers['idempotency-key'] = c.rng.pick(['', 'short', '1234567', 'has a space', 'x'.repeat(65), 'tab\there12', 'key\u007fdel1', 'x'.repeat(64) + ' ']);
      r.expect = { status: 400, code: 'invalid_idempotency_key', param: 'Idempotency-Key' };
    },
  },
  {
    name: 'idempotency-key-replayed',
    weight: 2,
    applies: (r, c) => c.keyed.some((k) => k.req.op.id === r.op.id),
    apply: (r, c) => {
      const k = c.rng.pick(c.keyed.filter((x) => x.req.op.id === r.op.id));
      const tags = r.tags;
      for (const f of Object.keys(r)) delete (r as unknown as Record<string, unknown>)[f];
      Object.assign(r, structuredClone({ ...k.req, op: undefined }), { op: k.req.op, tags, expect: undefined });
      r.replayOf = { status: k.status, body: k.body };
    },
  },
  {
    name: 'idempotency-key-reused',
    weight: 2,
    applies: (r, c) => 'idempotency-key' in r.headers && c.keyed.length > 0,
    apply: (r, c) => {
      const k = c.rng.pick(c.keyed);
      r.headers['idempotency-key'] = k.req.headers['idempotency-key'];
      // The same key for another request: refused, unless it happens to be the same request.
      if (fingerprintOf(r) !== fingerprintOf(k.req)) r.expect = { status: 422, code: 'idempotency_key_reused' };
    },
  },
];
