// Mutations of the body: not JSON, not UTF-8, not an object, unknown, missing, mistyped or
// out-of-range fields, unstorable or odd text, duplicate keys, other content types, over 1 MiB.
import { oddEmail, oddString, wrongTypeValue } from './values.js';
import { jsonBody, bodyProps, stringFields, SINGLE_LINE_FIELDS, isArrayField, limited, outOfRange, type Mutation } from './mutation-kit.js';

export const BODY_MUTATIONS: Mutation[] = [
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
];
