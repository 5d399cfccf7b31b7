// Values from the document's schemas: valid ones (real ids from the world where a parameter or
// field names a thing) and the odd ones mutations use. Field names decide which pool an id comes
// from: the document says `format: uuid`, not which kind of thing the id names.
import type { JsonSchema } from './document.js';
import type { Prng } from './prng.js';
import type { Kind, World } from './world.js';

/** Which kind of id a path, query or body name takes (`{id}` is decided by the segment before it). */
const NAME_KINDS: Record<string, Kind> = {
  project_id: 'project',
  sprint_id: 'sprint',
  assignee: 'user',
  contact_ids: 'contact',
};
const SEGMENT_KINDS: Record<string, Kind> = {
  workflows: 'workflow',
  runs: 'run',
  automations: 'automation',
  'automation-runs': 'automationRun',
  projects: 'project',
  items: 'item',
  contacts: 'contact',
};

/** The kind of thing a path parameter names, from the documented path. */
export function pathParamKind(docPath: string, name: string): Kind | 'workKey' | null {
  if (name === 'key') return 'workKey';
  if (name === 'project_id' && docPath.startsWith('/v1/workmgmt/')) return 'wmProject';
  const segs = docPath.split('/');
  const i = segs.indexOf(`{${name}}`);
  return SEGMENT_KINDS[segs[i - 1]] ?? NAME_KINDS[name] ?? null;
}

export function realId(world: World, rng: Prng, kind: Kind): string {
  const pool = world.ids[kind];
  // A kind with nothing in it yet (no run started so far): a well-formed id that names nothing.
  return pool.length ? rng.pick(pool) : rng.uuid();
}

export function otherAccountId(world: World, rng: Prng, kind: Kind): string | null {
  const pool = world.otherIds[kind];
  return pool.length ? rng.pick(pool) : null;
}

const isoDaysAgo = (days: number): string => new Date(Date.now() - days * 86_400_000).toISOString();

export function uniqueEmail(rng: Prng): string {
  return `${rng.word(3, 8)}.${rng.hex(6)}@${rng.pick(['example.org', 'example.com', 'mail.example'])}`;
}

function text(rng: Prng, min: number, max: number): string {
  const words: string[] = [];
  let s = '';
  while (s.length < Math.max(min, 1)) {
    words.push(rng.word(2, 9));
    s = words.join(' ');
  }
  while (rng.chance(0.5) && s.length + 10 < Math.min(max, 80)) s += ' ' + rng.word(2, 9);
  return s.slice(0, max);
}

const PHONE_RE = /^\^\[\+\]\?\[0-9/;

/** A string the schema takes, shaped by the name it is for. */
function validString(s: JsonSchema, name: string, world: World, rng: Prng): string {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 200;
  if (s.format === 'uuid') {
    const kind = NAME_KINDS[name];
    return kind ? realId(world, rng, kind) : rng.uuid();
  }
  // Now and then the edges of what the formats take: the first and last years, offsets, nanoseconds.
  if (s.format === 'date-time') {
    return rng.chance(0.15)
      ? rng.pick(['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '2026-01-01T00:00:00+14:00', '2026-01-01T00:00:00.123456789Z', '1969-12-31T23:59:59-12:00', '2026-06-30T23:59:59.5+00:00'])
      : isoDaysAgo(rng.int(0, 400));
  }
  if (s.format === 'date') {
    return rng.chance(0.15) ? rng.pick(['0001-01-01', '9999-12-31', '1970-01-01', '2024-02-29', '2000-01-01']) : isoDaysAgo(rng.int(0, 60)).slice(0, 10);
  }
  if (s.format === 'email' || name === 'email') {
    if (rng.chance(0.2) && world.emails.length) {
      // An address already taken, as sent or in another spelling of the same address.
      const e = rng.pick(world.emails);
      return rng.pick([e, e.toUpperCase(), ` ${e} `]);
    }
    if (rng.chance(0.1)) return `${rng.word()}+${rng.word()}@example.org`;
    return uniqueEmail(rng);
  }
  if (typeof s.pattern === 'string') {
    if (s.pattern.includes('[A-Z][A-Z0-9]')) return rng.pick(world.workKeys);
    if (PHONE_RE.test(s.pattern)) {
      return rng.chance(0.2)
        ? rng.pick(['1', '+0', '(((((1', '1.-.-.-', '0'.repeat(40), `+${'9'.repeat(39)}`, '+1 (555) 010-0001', '  1  '])
        : `+1 555 ${rng.int(100, 999)} ${rng.int(1000, 9999)}`;
    }
  }
  switch (name) {
    case 'markdown':
      return `# ${text(rng, 1, 40)}\n\n- ${text(rng, 1, 60)}\n- [link](https://example.org/${rng.word()})`;
    case 'html':
      return `<h1>${text(rng, 1, 40)}</h1><p>${text(rng, 1, 80)}</p>`;
    case 'label':
      return rng.pick(['web', 'mobile', rng.word()]);
    case 'q':
      // Search text meets LIKE patterns and full-text queries: their operators must be plain text.
      return rng.pick(['ann', 'pricing', 'lee', rng.word(2, 6), 'a%', 'a_b', 'x\\', 'a & b', 'a | !b', 'a:*', '(a)', "o'neil", 'ann lee', 'ἈΝΝ', 'ΣΊΣΥΦΟΣ', 'İ']);
  }
  return text(rng, min, max);
}

/** A value the schema takes; `name` is the parameter or field it is for. */
export function validValue(s: JsonSchema, name: string, world: World, rng: Prng): unknown {
  if (Array.isArray(s.anyOf)) {
    const nonNull = s.anyOf.filter((b: JsonSchema) => b.type !== 'null');
    const branch = nonNull.length && rng.chance(0.85) ? rng.pick(nonNull) : rng.pick(s.anyOf);
    return validValue(branch, name, world, rng);
  }
  if (Array.isArray(s.enum)) return rng.pick(s.enum);
  switch (s.type) {
    case 'null':
      return null;
    case 'boolean':
      return rng.chance(0.5);
    case 'integer':
    case 'number': {
      const min = s.minimum ?? 0;
      const max = Math.min(s.maximum ?? 1000, min + 1000);
      // Small pages most of the time, so lists give out cursors.
      if (name === 'limit' && rng.chance(0.7)) return rng.int(min, Math.min(max, 3));
      return rng.chance(0.1) ? rng.pick([min, s.maximum ?? max]) : rng.int(min, max);
    }
    case 'string':
      return validString(s, name, world, rng);
    case 'array': {
      const min = s.minItems ?? 0;
      const max = Math.min(s.maxItems ?? 5, min + 4);
      const n = rng.int(Math.max(min, name === 'contact_ids' ? 1 : 0), max);
      const out: unknown[] = [];
      for (let i = 0; i < n; i++) {
        const v = validValue(s.items ?? {}, name, world, rng);
        if (!s.uniqueItems || !out.includes(v)) out.push(v);
      }
      if (out.length < min) out.push(validValue(s.items ?? {}, name, world, rng));
      return out;
    }
    case 'object': {
      const o: Record<string, unknown> = {};
      const required = new Set<string>(s.required ?? []);
      for (const [k, ps] of Object.entries<JsonSchema>(s.properties ?? {})) {
        if (required.has(k) || rng.chance(0.5)) o[k] = validValue(ps, k, world, rng);
      }
      return o;
    }
  }
  return rng.word();
}

/** The query text of a value (arrays as repeated parameters are not used by any operation). */
export const asQueryText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** Strings that have broken servers before: controls, surrogates, bidi, fullwidth, huge. */
export function oddString(rng: Prng): string {
  return rng.pick([
    '\u0000',
    `a\u0000b`,
    '\ud800',
    'x\udfffy',
    '\u202eevil',
    'a\u2066b\u2069',
    'ａｎｎ',
    'ａｎｎ＠ｅｘａｍｐｌｅ．ｏｒｇ',
    '\u200b',
    '\ufeffbom',
    '\u2028line',
    '\u0007bell',
    '\u0085nel',
    '\u009bcsi',
    'e\u0301\u0301\u0301',
    '👩‍💻🏳️‍🌈',
    'İstanbul ß ς',
    '\u0645\u0631\u062d\u0628\u0627',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '%00',
    '%',
    'null',
    '{}',
    ' ',
    '',
    'a'.repeat(rng.pick([201, 321, 501, 5000, 70_000])),
  ]);
}

/** Addresses at the edges of what an email is (some taken, some refused: only the general rules apply). */
export function oddEmail(rng: Prng): string {
  return rng.pick(['a@b', '"a b"@example.org', `${rng.word()}@exämple.org`, `${rng.word()}@[127.0.0.1]`, '@', 'a@@b.org', `${'a'.repeat(64)}@${'b'.repeat(250)}.org`, `${rng.word()}@example.org.`, 'a@-b.org', 'a..b@example.org']);
}

/** A value of the wrong JSON type for the schema. */
export function wrongTypeValue(s: JsonSchema, rng: Prng): unknown {
  const types = new Set<string>((Array.isArray(s.anyOf) ? s.anyOf : [s]).map((b: JsonSchema) => b.type));
  const candidates: unknown[] = [123, 1.5, true, 'false', '', { a: 1 }, [1, 'x'], null].filter((v) => {
    const t = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;
    if (types.has(t)) return false;
    if (t === 'integer' && types.has('number')) return false;
    return true;
  });
  return rng.pick(candidates);
}
