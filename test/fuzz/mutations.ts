// Mutations: each takes a valid request and puts one fault in it, and says what the spec answers
// when that fault alone decides (pipeline order: auth, routing, account, scope, rate limit, body
// parsing, then validation of params, body, query, headers, then idempotency, then the handler).
import { generateKey } from '../../src/lib/api-keys.js';
import type { ApiDocument, JsonSchema, Param } from './document.js';
import type { Prng } from './prng.js';
import { REQUIRED_BY_SPEC, pathOf, type FuzzRequest } from './request.js';
import { oddEmail, oddString, otherAccountId, pathParamKind, wrongTypeValue } from './values.js';
import type { World } from './world.js';

/** A keyed request that succeeded, and its answer (for replays and reused keys). */
export interface Keyed {
  req: FuzzRequest;
  status: number;
  body: string;
}

export interface Ctx {
  doc: ApiDocument;
  world: World;
  rng: Prng;
  keyed: Keyed[];
}

export interface Mutation {
  name: string;
  weight: number;
  applies: (r: FuzzRequest, c: Ctx) => boolean;
  apply: (r: FuzzRequest, c: Ctx) => void;
}

const queryParams = (r: FuzzRequest): Param[] => r.op.params.filter((p) => p.in === 'query');
const queryOf = (r: FuzzRequest, pred: (p: Param) => boolean) => queryParams(r).filter(pred);
const setQuery = (r: FuzzRequest, name: string, value: string) => {
  r.query = r.query.filter(([k]) => k !== name);
  r.query.push([name, value]);
};
const dropCursor = (r: FuzzRequest) => (r.query = r.query.filter(([k]) => k !== 'cursor'));
const jsonBody = (r: FuzzRequest): Record<string, unknown> | null =>
  r.body?.kind === 'json' && r.body.value && typeof r.body.value === 'object' && !Array.isArray(r.body.value)
    ? (r.body.value as Record<string, unknown>)
    : null;
const bodyProps = (r: FuzzRequest): Record<string, JsonSchema> => r.op.body?.schema.properties ?? {};
const uuidPathParams = (r: FuzzRequest) => r.op.params.filter((p) => p.in === 'path' && p.schema.format === 'uuid');
const isWrite = (r: FuzzRequest) => r.op.method !== 'GET';
/** The JSON value's type, as a schema names it. */
const hasStringSchema = (s: JsonSchema) => s.type === 'string' || (s.anyOf ?? []).some((b: JsonSchema) => b.type === 'string' && !b.enum);
const stringFields = (r: FuzzRequest) =>
  Object.entries(bodyProps(r)).filter(([, s]) => hasStringSchema(s) || (s.type === 'array' && s.items?.type === 'string') || (s.anyOf ?? []).some((b: JsonSchema) => b.type === 'array'));

/** A query parameter whose value is any text (no enum, format or integer): q, email, label. */
const freeText = (p: Param) => p.schema.type === 'string' && !p.schema.enum && !p.schema.format && p.name !== 'cursor' && !/^\^/.test(p.schema.pattern ?? '');

const SINGLE_LINE_FIELDS = new Set(['first_name', 'last_name', 'title', 'tags']);

export const MUTATIONS: Mutation[] = [
  // ---- query ----
  {
    name: 'unknown-query-parameter',
    weight: 3,
    applies: () => true,
    apply: (r, c) => {
      const name = c.rng.pick(['foo', 'limit2', 'LIMIT', 'status[]', 'project', 'expand', `x_${c.rng.word()}`, '__proto__', 'constructor', 'hasOwnProperty', 'toString', 'a.b', ' limit']);
      r.query.push([name, c.rng.pick(['1', '', 'x'])]);
      r.expect = { status: 400, code: 'unknown_parameter', param: name };
    },
  },
  {
    name: 'query-integer-not-decimal',
    weight: 2,
    applies: (r) => queryOf(r, (p) => p.schema.type === 'integer').length > 0,
    apply: (r, c) => {
      const p = c.rng.pick(queryOf(r, (q) => q.schema.type === 'integer'));
      setQuery(r, p.name, c.rng.pick(['abc', '1.5', '0x10', '1e1', ' 5', '+5', '', '٣', '5 ', 'NaN', 'Infinity']));
      r.expect = { status: 400, code: 'invalid_parameter', param: p.name };
    },
  },
  {
    name: 'query-integer-out-of-range',
    weight: 2,
    applies: (r) => queryOf(r, (p) => p.schema.type === 'integer').length > 0,
    apply: (r, c) => {
      const p = c.rng.pick(queryOf(r, (q) => q.schema.type === 'integer'));
      setQuery(r, p.name, c.rng.pick(['0', '101', '-1', '100000', '99999999999999999999', '-0']));
      r.expect = { status: 400, code: 'invalid_parameter', param: p.name };
    },
  },
  {
    name: 'query-enum-unknown-value',
    weight: 2,
    applies: (r) => queryOf(r, (p) => Array.isArray(p.schema.enum)).length > 0,
    apply: (r, c) => {
      const p = c.rng.pick(queryOf(r, (q) => Array.isArray(q.schema.enum)));
      setQuery(r, p.name, c.rng.pick(['nope', String(p.schema.enum[0]).toUpperCase(), '', `${p.schema.enum[0]} `, `${p.schema.enum[0]},x`]));
      r.expect = { status: 400, code: 'invalid_parameter', param: p.name };
    },
  },
  {
    name: 'query-bad-uuid',
    weight: 2,
    applies: (r) => queryOf(r, (p) => p.schema.format === 'uuid').length > 0,
    apply: (r, c) => {
      const p = c.rng.pick(queryOf(r, (q) => q.schema.format === 'uuid'));
      setQuery(r, p.name, c.rng.pick(['not-a-uuid', '123', `urn:uuid:${c.rng.uuid()}`, `{${c.rng.uuid()}}`, `${c.rng.uuid()}0`, c.rng.uuid().replace(/-/g, '')]));
      r.expect = { status: 400, code: 'invalid_id', param: p.name };
    },
  },
  {
    name: 'query-bad-date',
    weight: 2,
    applies: (r) => queryOf(r, (p) => p.schema.format === 'date' || p.schema.format === 'date-time').length > 0,
    apply: (r, c) => {
      const p = c.rng.pick(queryOf(r, (q) => q.schema.format === 'date' || q.schema.format === 'date-time'));
      const bad = p.schema.format === 'date' ? ['2026-13-01', '2026-02-30', '0000-01-01', 'yesterday', '20260101', '2026-1-1'] : ['2026-13-01T00:00:00Z', 'yesterday', '2026-01-01T24:61:00Z', '0000-01-01T00:00:00Z', '1', '2026-01-01T23:59:60Z'];
      setQuery(r, p.name, c.rng.pick(bad));
      r.expect = { status: 400, code: 'invalid_parameter', param: p.name };
    },
  },
  {
    name: 'cursor-forged',
    weight: 2,
    applies: (r) => queryOf(r, (p) => p.name === 'cursor').length > 0,
    apply: (r, c) => {
      const real = c.world.cursors.length ? c.rng.pick(c.world.cursors).cursor : 'eyJwIjpbXX0.AAAA';
      const tampered = real.length > 4 ? real.slice(0, 3) + (real[3] === 'A' ? 'B' : 'A') + real.slice(4) : 'x';
      setQuery(r, 'cursor', c.rng.pick(['', 'x', 'null', '..', real + 'A', tampered, real.split('.')[0], Buffer.from('{"p":[],"s":"x"}').toString('base64url') + '.AAAA', 'a'.repeat(3000)]));
      r.expect = { status: 400, code: 'invalid_cursor', param: 'cursor' };
    },
  },
  {
    name: 'cursor-of-another-list',
    weight: 2,
    applies: (r, c) => queryOf(r, (p) => p.name === 'cursor').length > 0 && c.world.cursors.some((x) => x.opId !== r.op.id),
    apply: (r, c) => {
      const x = c.rng.pick(c.world.cursors.filter((y) => y.opId !== r.op.id));
      setQuery(r, 'cursor', x.cursor);
      r.expect = { status: 400, code: 'invalid_cursor', param: 'cursor' };
    },
  },
  {
    name: 'cursor-with-other-filters',
    weight: 2,
    applies: (r, c) => c.world.cursors.some((x) => x.opId === r.op.id && x.path === pathOf(r)) && queryOf(r, (p) => Array.isArray(p.schema.enum)).length > 0,
    apply: (r, c) => {
      const x = c.rng.pick(c.world.cursors.filter((y) => y.opId === r.op.id && y.path === pathOf(r)));
      const p = c.rng.pick(queryOf(r, (q) => Array.isArray(q.schema.enum)));
      const others = (p.schema.enum as string[]).filter((v) => v !== x.query[p.name]);
      r.query = [...Object.entries({ ...x.query, [p.name]: c.rng.pick(others) }), ['cursor', x.cursor]];
      r.expect = { status: 400, code: 'invalid_cursor', param: 'cursor' };
    },
  },
  {
    name: 'query-odd-unicode',
    weight: 3,
    applies: (r) => queryOf(r, (p) => p.schema.type === 'string' || !!p.schema.anyOf).length > 0,
    apply: (r, c) => {
      const p = c.rng.pick(queryOf(r, (q) => q.schema.type === 'string' || !!q.schema.anyOf));
      // A lone surrogate cannot be percent-encoded as UTF-8 (that is the malformed mutation below).
      setQuery(r, p.name, oddString(c.rng).replace(/[\ud800-\udfff]/g, '\ufffd'));
    },
  },
  {
    name: 'query-malformed-percent-encoding',
    weight: 3,
    // Only parameters that take free text: elsewhere the undecoded text is refused anyway.
    applies: (r) => queryOf(r, freeText).length > 0,
    apply: (r, c) => {
      const p = c.rng.pick(queryOf(r, freeText));
      r.query = r.query.filter(([k]) => k !== p.name && k !== 'cursor');
      r.rawQuery = `${p.name}=${c.rng.pick(['%zz', '%E0%A4', '%', '%ED%A0%80', '%C0%AF', '%FF', 'a%2', '%%41'])}`;
      r.expect = { status: 400, code: 'invalid_parameter', pending: 'query-malformed-percent-encoding' };
    },
  },
  {
    name: 'query-parameter-twice',
    weight: 1,
    applies: (r) => queryParams(r).length > 0,
    apply: (r, c) => {
      const p = c.rng.pick(queryParams(r));
      const v = r.query.find(([k]) => k === p.name)?.[1] ?? '1';
      r.query.push([p.name, v], [p.name, v]);
    },
  },
  // ---- path ----
  {
    name: 'path-bad-id',
    weight: 3,
    applies: (r) => r.op.params.some((p) => p.in === 'path'),
    apply: (r, c) => {
      const p = c.rng.pick(r.op.params.filter((q) => q.in === 'path'));
      const bad =
        p.name === 'key'
          ? ['web-1', 'WEB-0', 'WEB', 'WEB-1-2', '1-WEB', 'WEB-01', 'ＷＥＢ-1', 'WEB-12345678901', 'ABCDEFGHIJK-1', ' WEB-1']
          : ['abc', '123', `${c.rng.uuid()}0`, `urn:uuid:${c.rng.uuid()}`, `{${c.rng.uuid()}}`, c.rng.uuid().replace(/-/g, ''), ' ', '\u0000', 'null', 'x'.repeat(3000), c.rng.uuid().replace(/[a-f]/, 'g')];
      r.pathParams[p.name] = c.rng.pick(bad);
      dropCursor(r);
      r.expect = { status: 400, code: 'invalid_id' };
    },
  },
  {
    name: 'path-unknown-id',
    weight: 3,
    applies: (r) => uuidPathParams(r).length > 0 || r.op.params.some((p) => p.name === 'key'),
    apply: (r, c) => {
      const p = c.rng.pick(r.op.params.filter((q) => q.in === 'path'));
      r.pathParams[p.name] = p.name === 'key' ? c.rng.pick(['WEB-999', 'ZZZ-1', 'WEB-4000000000']) : c.rng.uuid();
      dropCursor(r);
      r.expect = { status: 404, code: 'resource_not_found' };
    },
  },
  {
    name: 'path-other-account-id',
    weight: 3,
    applies: (r, c) => uuidPathParams(r).some((p) => {
      const k = pathParamKind(r.op.path, p.name);
      return k !== null && k !== 'workKey' && c.world.otherIds[k].length > 0;
    }),
    apply: (r, c) => {
      const ps = uuidPathParams(r).filter((p) => {
        const k = pathParamKind(r.op.path, p.name);
        return k !== null && k !== 'workKey' && c.world.otherIds[k].length > 0;
      });
      const p = c.rng.pick(ps);
      const k = pathParamKind(r.op.path, p.name) as Exclude<ReturnType<typeof pathParamKind>, 'workKey' | null>;
      r.pathParams[p.name] = otherAccountId(c.world, c.rng, k)!;
      dropCursor(r);
      r.expect = { status: 404, code: 'resource_not_found' };
    },
  },
  {
    name: 'path-id-upper-case',
    weight: 1,
    applies: (r) => uuidPathParams(r).length > 0,
    apply: (r, c) => {
      const p = c.rng.pick(uuidPathParams(r));
      r.pathParams[p.name] = r.pathParams[p.name].toUpperCase();
    },
  },
  {
    name: 'unknown-route',
    weight: 2,
    applies: () => true,
    apply: (r, c) => {
      const path = pathOf(r);
      r.rawPath = c.rng.pick([`${path}/x`, `${path}/`, path.replace('/v1/', '/v1//'), path.replace('/v1/', '/v2/'), `${path}%2Fx`, path.replace(/\/[^/]+$/, '/..'), `${path}/%00`, path.replace('/v1', '/V1')]);
      dropCursor(r);
    },
  },
  {
    name: 'wrong-method',
    weight: 2,
    applies: () => true,
    apply: (r, c) => {
      const allowed = c.doc.methodsAt.get(r.op.path) ?? [];
      r.method = c.rng.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((m) => !allowed.includes(m)));
      r.expect = { status: 405, code: 'method_not_allowed' };
    },
  },
  // ---- body ----
  {
    name: 'body-not-json',
    weight: 2,
    applies: (r) => !!r.op.body,
    apply: (r, c) => {
      r.body = { kind: 'raw', payload: c.rng.pick(['{', '{"a":}', "{'a':1}", 'NaN', '[1,]', '{"a":1}x', '\ufeff{}', '{"a":1,}', 'undefined', '{"a" 1}', '"\\x"', '{"a":"\\ud800"']), contentType: 'application/json' };
      r.expect = { status: 400, code: 'invalid_json' };
    },
  },
  {
    name: 'body-deeply-nested',
    weight: 1,
    applies: (r) => !!r.op.body,
    apply: (r, c) => {
      const depth = c.rng.pick([1000, 100_000]);
      const inner = '['.repeat(depth) + ']'.repeat(depth);
      const top = c.rng.chance(0.5);
      // Inside an otherwise valid body, so that the unknown field is the one fault.
      const valid = JSON.stringify(jsonBody(r) ?? {});
      const nested = `${valid.slice(0, -1)}${valid === '{}' ? '' : ','}"x_nested":${inner}}`;
      r.body = { kind: 'raw', payload: top ? inner : nested, contentType: 'application/json' };
      r.expect = top ? { status: 422, code: 'invalid_body' } : { status: 422, code: 'unknown_field', param: 'x_nested' };
    },
  },
  {
    name: 'body-not-utf8',
    weight: 1,
    applies: (r) => !!r.op.body,
    apply: (r) => {
      r.body = { kind: 'raw', payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0xff, 0x22, 0x7d]), contentType: 'application/json' };
      r.expect = { status: 400, code: 'invalid_json' };
    },
  },
  {
    name: 'body-not-an-object',
    weight: 2,
    applies: (r) => !!r.op.body,
    apply: (r, c) => {
      r.body = { kind: 'raw', payload: c.rng.pick(['null', '[]', '1', '"x"', 'true', '[{}]']), contentType: 'application/json' };
      r.expect = { status: 422, code: 'invalid_body' };
    },
  },
  {
    name: 'body-unknown-field',
    weight: 3,
    applies: (r) => !!r.op.body,
    apply: (r, c) => {
      const field = c.rng.pick(['id', 'account_id', 'created_at', '__proto__', 'constructor', 'Email', 'extra', c.rng.word()]);
      const v = { ...(jsonBody(r) ?? {}) };
      Object.defineProperty(v, field, { value: c.rng.pick([1, 'x', null, {}]), enumerable: true, configurable: true, writable: true });
      r.body = { kind: 'json', value: v };
      r.expect = { status: 422, code: 'unknown_field', param: field };
    },
  },
  {
    name: 'body-missing-required-field',
    weight: 2,
    applies: (r) => (r.op.body?.schema.required ?? []).length > 0 && jsonBody(r) !== null,
    apply: (r, c) => {
      const f = c.rng.pick(r.op.body!.schema.required as string[]);
      delete jsonBody(r)![f];
      r.expect = { status: 400, code: 'missing_field', param: f };
    },
  },
  {
    name: 'body-field-wrong-type',
    weight: 3,
    applies: (r) => Object.keys(bodyProps(r)).length > 0 && jsonBody(r) !== null,
    apply: (r, c) => {
      const [f, s] = c.rng.pick(Object.entries(bodyProps(r)));
      jsonBody(r)![f] = wrongTypeValue(s, c.rng);
      r.expect = { status: 422, code: 'invalid_field', param: f };
    },
  },
  {
    name: 'body-field-out-of-range',
    weight: 3,
    applies: (r) => Object.values(bodyProps(r)).some(limited) && jsonBody(r) !== null,
    apply: (r, c) => {
      const [f, s] = c.rng.pick(Object.entries(bodyProps(r)).filter(([, x]) => limited(x)));
      jsonBody(r)![f] = outOfRange(s, c);
      r.expect = { status: 422, code: 'invalid_field', param: f };
    },
  },
  {
    name: 'body-unstorable-text',
    weight: 2,
    applies: (r) => stringFields(r).length > 0 && jsonBody(r) !== null,
    apply: (r, c) => {
      const [f, s] = c.rng.pick(stringFields(r));
      const bad = c.rng.pick(['\u0000', 'a\u0000', '\ud800', 'x\udc00']);
      jsonBody(r)![f] = isArrayField(s) ? [bad] : bad;
      r.expect = { status: 422, code: 'invalid_field', param: f };
    },
  },
  {
    name: 'body-odd-unicode',
    weight: 3,
    applies: (r) => stringFields(r).length > 0 && jsonBody(r) !== null,
    apply: (r, c) => {
      const [f, s] = c.rng.pick(stringFields(r));
      const v = oddString(c.rng);
      jsonBody(r)![f] = isArrayField(s) ? [v] : v;
    },
  },
  {
    name: 'body-odd-email',
    weight: 1,
    applies: (r) => jsonBody(r) !== null && 'email' in bodyProps(r),
    apply: (r, c) => {
      jsonBody(r)!.email = oddEmail(c.rng);
    },
  },
  {
    name: 'single-line-text-controls',
    weight: 2,
    applies: (r) => jsonBody(r) !== null && Object.keys(bodyProps(r)).some((f) => SINGLE_LINE_FIELDS.has(f) || f === 'email'),
    apply: (r, c) => {
      const f = c.rng.pick(Object.keys(bodyProps(r)).filter((x) => SINGLE_LINE_FIELDS.has(x) || x === 'email'));
      const v =
        f === 'email'
          ? c.rng.pick(['ａｎｎ@example.org', 'ann@ｅｘａｍｐｌｅ.org', 'ann\u202e@example.org', '\u2066ann@example.org', 'an\u200fn@example.org'])
          : `${c.rng.word()}${c.rng.pick(['\u0001', '\u0007', '\u001b[31m', '\u0085', '\u009b', '\u007f'])}${c.rng.word()}`;
      jsonBody(r)![f] = f === 'tags' ? [v] : v;
      r.expect = { status: 422, code: 'invalid_field', param: f, pending: 'single-line-text-controls' };
    },
  },
  {
    name: 'json-duplicate-keys',
    weight: 2,
    applies: (r) => jsonBody(r) !== null && Object.keys(jsonBody(r)!).length > 0,
    apply: (r, c) => {
      const v = jsonBody(r)!;
      const k = c.rng.pick(Object.keys(v));
      const json = JSON.stringify(v);
      // The same key again at the end, with the same or another valid-looking value.
      const again = `${JSON.stringify(k)}:${JSON.stringify(c.rng.chance(0.5) ? v[k] : typeof v[k] === 'string' ? `${v[k]}x` : v[k])}`;
      r.body = { kind: 'raw', payload: `${json.slice(0, -1)},${again}}`, contentType: 'application/json' };
      r.expect = { status: 400, code: 'invalid_json', pending: 'json-duplicate-keys' };
    },
  },
  {
    name: 'content-type-not-json',
    weight: 2,
    applies: (r) => !!r.op.body,
    apply: (r, c) => {
      const payload = r.body?.kind === 'json' ? JSON.stringify(r.body.value) : '{}';
      r.body = { kind: 'raw', payload, contentType: c.rng.pick(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x', 'application/jsonx', 'text/json', 'application/json-patch+json']) };
      r.expect = { status: 415, code: 'unsupported_media_type' };
    },
  },
  {
    name: 'json-charset-not-utf8',
    weight: 2,
    applies: (r) => !!r.op.body,
    apply: (r, c) => {
      const payload = r.body?.kind === 'json' ? JSON.stringify(r.body.value) : '{}';
      r.body = { kind: 'raw', payload, contentType: `application/json; charset=${c.rng.pick(['latin1', 'iso-8859-1', 'utf-16', 'windows-1252'])}` };
      r.expect = { status: 415, code: 'unsupported_media_type', pending: 'json-charset-not-utf8' };
    },
  },
  {
    name: 'json-content-type-variants',
    weight: 1,
    applies: (r) => r.body?.kind === 'json',
    apply: (r, c) => {
      r.headers['content-type'] = c.rng.pick(['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'APPLICATION/JSON', 'application/json ']);
    },
  },
  {
    name: 'body-over-1-mib',
    weight: 1,
    applies: (r) => !!r.op.body,
    apply: (r) => {
      r.body = { kind: 'raw', payload: `{"x":"${'a'.repeat(1_048_577)}"}`, contentType: 'application/json' };
      r.expect = { status: 413, code: 'body_too_large' };
    },
  },
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
    apply: (r, c) => {
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

function isArrayField(s: JsonSchema): boolean {
  return s.type === 'array' || (s.anyOf ?? []).some((b: JsonSchema) => b.type === 'array');
}

function limited(s: JsonSchema): boolean {
  const bs: JsonSchema[] = Array.isArray(s.anyOf) ? s.anyOf : [s];
  return bs.some((b) => b.maxLength !== undefined || b.minLength || b.maxItems !== undefined || b.minItems || Array.isArray(b.enum) || b.pattern);
}

function outOfRange(s: JsonSchema, c: Ctx): unknown {
  const bs: JsonSchema[] = (Array.isArray(s.anyOf) ? s.anyOf : [s]).filter((b: JsonSchema) => limited(b));
  const b = c.rng.pick(bs);
  const options: unknown[] = [];
  if (b.maxLength !== undefined) options.push('x'.repeat(b.maxLength + 1), 'é'.repeat(b.maxLength + 1));
  if (b.minLength) options.push('');
  if (b.maxItems !== undefined) options.push(Array.from({ length: b.maxItems + 1 }, (_, i) => (b.items?.format === 'uuid' ? c.rng.uuid() : `t${i}`)));
  if (b.minItems) options.push([]);
  if (Array.isArray(b.enum)) options.push('nope', String(b.enum[0]).toUpperCase());
  if (b.pattern) options.push('abc', '++', '');
  if (b.items?.minLength) options.push(['']);
  if (b.uniqueItems) options.push(['dup', 'dup']);
  return c.rng.pick(options);
}

/** What the server fingerprints: method, path with ids in lower case, canonical JSON body ({} when none). */
export function fingerprintOf(r: FuzzRequest): string {
  const canon = (v: unknown): string => {
    if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
    if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canon(o[k])}`).join(',')}}`;
  };
  let body: unknown = {};
  if (r.body?.kind === 'json') body = r.body.value;
  else if (r.body?.kind === 'raw') {
    // Sent as text: the server fingerprints what it parsed (an empty body is {}).
    const text = String(r.body.payload);
    try {
      body = text.trim() === '' ? {} : JSON.parse(text);
    } catch {
      body = `raw:${text}`;
    }
  }
  return `${r.method} ${pathOf(r).toLowerCase()}\n${canon(body)}`;
}

export { REQUIRED_BY_SPEC };
