// Mutations of the request line: query parameters (unknown, mistyped, out of range, forged or
// foreign cursors, odd text, malformed percent-encoding), path ids (malformed, unknown, another
// account's), routes that do not exist and methods a path does not take.
import { oddString, otherAccountId, pathParamKind } from './values.js';
import { pathOf } from './request.js';
import { queryParams, queryOf, setQuery, dropCursor, uuidPathParams, freeText, type Mutation } from './mutation-kit.js';

export const REQUEST_LINE_MUTATIONS: Mutation[] = [
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
];
