// Drives the fuzzer: builds each request (a valid base, then zero, one or two mutations), sends
// it with inject(), checks the answer, and learns from successes (new ids, cursors, keyed
// requests to replay). Returns counts for the summary and every violation with its request.
import type { App } from '../../src/http/app.js';
import type { Db } from '../../src/db/db.js';
import { readDocument, type ApiDocument, type Operation } from './document.js';
import { MUTATIONS, type Ctx, type Keyed } from './mutations.js';
import { check, type PendingTally, type Violation } from './oracle.js';
import { checkOffDocument, offDocumentRequest, unsubscribeTokens } from './off-document.js';
import { PENDING_FIXES } from './pending.js';
import { Prng } from './prng.js';
import { baseRequest, describeRequest, toInject, urlOf, type FuzzRequest } from './request.js';
import { buildWorld, learn } from './world.js';

export interface Found extends Violation {
  index: number;
  request: string;
  answer: string;
}

export interface FuzzReport {
  seed: number;
  sent: number;
  ms: number;
  /** Statuses seen, by operation (and by mutation). */
  byOp: Map<string, Map<number, number>>;
  byMutation: Map<string, Map<number, number>>;
  found: Found[];
  pending: PendingTally;
}

export interface FuzzOptions {
  seed: number;
  count: number;
  /** Which documented operations to fuzz (default: all). */
  only?: (op: Operation) => boolean;
}

const jsonHas = (r: FuzzRequest, field: string): boolean =>
  r.body?.kind === 'json' && typeof r.body.value === 'object' && r.body.value !== null && typeof (r.body.value as Record<string, unknown>)[field] === 'string';

const bump = (m: Map<string, Map<number, number>>, k: string, status: number) => {
  const inner = m.get(k) ?? new Map<number, number>();
  inner.set(status, (inner.get(status) ?? 0) + 1);
  m.set(k, inner);
};

export async function fetchDocument(app: App): Promise<ApiDocument> {
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}`);
  return readDocument(res.json());
}

export async function runFuzz(app: App, db: Db, opts: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now();
  const doc = await fetchDocument(app);
  const world = await buildWorld(db);
  const rng = new Prng(opts.seed);
  const keyed: Keyed[] = [];
  const ctx: Ctx = { doc, world, rng, keyed };
  const ops = doc.operations.filter(opts.only ?? (() => true));
  if (ops.length === 0) throw new Error('no operation to fuzz');
  const keyNames = new Map(Object.entries(world.keys).map(([role, k]) => [`Bearer ${k}`, `Bearer <${role} key>`]));
  const report: FuzzReport = { seed: opts.seed, sent: 0, ms: 0, byOp: new Map(), byMutation: new Map(), found: [], pending: new Map() };

  const tokens = await unsubscribeTokens(db, world.accountId, world.ids.contact.slice(0, 3));
  for (let i = 0; i < opts.count; i++) {
    if (rng.chance(0.04)) {
      const { route, req } = offDocumentRequest(rng, tokens);
      const res = await app.inject(req);
      report.sent++;
      bump(report.byOp, route, res.statusCode);
      for (const v of checkOffDocument(res, doc)) report.found.push({ ...v, index: i, request: `${req.method} ${String(req.url).slice(0, 200)} ${String(req.payload ?? '').slice(0, 200)}`, answer: `${res.statusCode} ${res.body.slice(0, 400)}` });
      continue;
    }
    const r = baseRequest(doc, rng.pick(ops), world, rng);
    const n = rng.weighted([[20, 0], [68, 1], [12, 2]] as const);
    for (let m = 0; m < n && !r.replayOf; m++) {
      const candidates = MUTATIONS.filter((x) => x.applies(r, ctx));
      const mut = rng.weighted(candidates.map((x) => [x.weight, x] as const));
      mut.apply(r, ctx);
      r.tags.push(mut.name);
    }
    // Two faults at once: which one answers is the server's choice; only the general rules hold.
    if (r.tags.length > 1) r.expect = undefined;

    // Now and then a valid request is sent two or three times at once: duplicates racing on a
    // unique email or one Idempotency-Key must still get answers by the rules (409, not 500).
    const copies = r.tags.length === 0 && rng.chance(r.op.body ? 0.12 : 0.04) ? rng.int(2, 3) : 1;
    if (copies > 1) r.tags.push(`concurrent-${copies}`);
    const sent = Array.from({ length: copies }, () => r);
    // Two contacts changed to one new email at once: one wins, the other is 409 contact_exists.
    const others = world.ids.contact.filter((id) => id !== r.pathParams.id);
    if (copies > 1 && r.op.id === 'updateContact' && jsonHas(r, 'email') && others.length >= copies) {
      for (let k = 1; k < copies; k++) sent[k] = { ...r, pathParams: { ...r.pathParams, id: others[k] } };
      r.tags.push('other-contacts');
    }
    const answers = await Promise.all(sent.map((x) => app.inject(toInject(x))));
    for (const [k, res] of answers.entries()) {
      const r = sent[k];
      report.sent++;
      bump(report.byOp, r.op.id, res.statusCode);
      bump(report.byMutation, r.tags.join('+') || 'valid', res.statusCode);
      for (const v of check(r, res, doc, report.pending)) {
        report.found.push({ ...v, index: i, request: describeRequest(r, keyNames), answer: `${res.statusCode} ${res.body.slice(0, 400)}` });
      }
    }
    const wins = answers.filter((a) => a.statusCode >= 200 && a.statusCode < 300);
    if (r.tags.includes('other-contacts') && wins.length > 1) {
      report.found.push({ check: 'concurrent-unique-email', detail: `${wins.length} contacts given one email at once`, index: i, request: describeRequest(r, keyNames), answer: wins.map((a) => a.body.slice(0, 200)).join(' | ') });
    }
    if (r.headers['idempotency-key'] && new Set(wins.map((a) => a.body)).size > 1) {
      report.found.push({ check: 'concurrent-idempotency', detail: `one Idempotency-Key, ${wins.length} different successes`, index: i, request: describeRequest(r, keyNames), answer: wins.map((a) => a.body.slice(0, 200)).join(' | ') });
    }

    const res = wins[0] ?? answers[0];
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    const byMain = r.headers.authorization === `Bearer ${world.keys.main}`;
    if (ok && byMain && r.rawPath === undefined && r.method === r.op.method) {
      const query = Object.fromEntries(new URL(urlOf(r), 'http://x').searchParams);
      learn(world, r.op.id, urlOf(r).split('?')[0], query, res.json());
      if (r.headers['idempotency-key'] && !r.replayOf && keyed.length < 300) keyed.push({ req: r, status: res.statusCode, body: res.body });
    }
  }
  report.ms = Date.now() - started;
  return report;
}

const statusList = (m: Map<number, number>) =>
  [...m.entries()]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');

export function summary(report: FuzzReport, file: string): string {
  const lines = [`fuzz ${file}: seed ${report.seed}, ${report.sent} requests in ${(report.ms / 1000).toFixed(1)} s, ${report.found.length} violations`];
  for (const [op, m] of [...report.byOp.entries()].sort()) lines.push(`  ${op.padEnd(20)} ${statusList(m)}`);
  if (process.env.FUZZ_VERBOSE) {
    for (const [name, m] of [...report.byMutation.entries()].sort()) lines.push(`  + ${name.padEnd(50)} ${statusList(m)}`);
  }
  for (const [name, t] of report.pending) lines.push(`  pending ${name}: expectation met ${t.met}, not met ${t.unmet}${PENDING_FIXES.has(name) ? '' : ' (enforced)'}`);
  return lines.join('\n');
}

/** The failure message: how to replay, then the first violations of each kind with their requests. */
export function failureReport(report: FuzzReport, file: string, count: number): string {
  const byCheck = new Map<string, Found[]>();
  for (const f of report.found) byCheck.set(f.check, [...(byCheck.get(f.check) ?? []), f]);
  const lines = [
    `${report.found.length} violations; replay with FUZZ_SEED=${report.seed} FUZZ_REQUESTS=${count} npx vitest run ${file}`,
  ];
  for (const [name, fs] of byCheck) {
    lines.push(`-- ${name} (${fs.length})`);
    for (const f of fs.slice(0, 4)) lines.push(`  #${f.index}: ${f.detail}\n    request: ${f.request}\n    answer: ${f.answer}`);
  }
  return lines.join('\n');
}

/** Pending fixes whose expectation every tested request met: the fix is in, the name must go. */
export function fixedButPending(report: FuzzReport): string[] {
  return [...report.pending.entries()].filter(([name, t]) => PENDING_FIXES.has(name) && t.met > 0 && t.unmet === 0).map(([name]) => name);
}

export type { FuzzRequest };
