// The automation step kinds (docs/architecture.md §10.4, §12.3). Each `apply` runs inside the
// fenced transaction that also ends the step (and, for a wait or an end, moves the run), so a
// step's effect and its `ok` commit together or not at all: a resumed step never acts twice. Sends
// also carry the effect key `${runId}:${stepId}`, so even a second pass finds the message it
// already wrote. `prepare` is for work that must not hold a transaction open (the LLM call of
// ai.write).
import type { Config } from '../../config.js';
import type { Db, Queryable } from '../../db/db.js';
import { enqueueMessage } from '../../delivery/store.js';
import { unsubscribeHeaders, withUnsubscribeLink } from '../../delivery/unsubscribe.js';
import { smsSegments } from '../../domain/sms-segments.js';
import type { Channel } from '../../domain/message.js';
import { LIMIT_MESSAGES, tokenMicros } from '../blocks/agent.js';
import { estimateTokens } from '../providers/llm/local.js';
import { isLimitRefusal, type Billing, type Providers } from '../types.js';
import { evaluateCondition, templateView, waitSpec, type Outputs } from './conditions.js';
import { renderHtml, renderPlain } from '../../domain/template.js';
import { emailSuppression, smsSuppression } from '../../delivery/suppression.js';
import { LIFECYCLE_STAGES, STEP_SETTABLE_FIELDS, type StepContactRow, type StepSettableField } from '../../domain/contact.js';
import { addContactTag, setContactField, teamOf } from './steps-store.js';
import { insertWorkItem, taskOf } from '../work-item-store.js';
import { waitDue } from './store.js';

export interface AutomationStep {
  id: string;
  name: string;
  type: string;
  config: Record<string, unknown>;
  next?: string;
  branches?: Record<string, string>;
}

export interface RunInfo {
  accountId: string;
  runId: string;
  automationId: string;
  projectId: string;
  keyId: string | null;
  contactId: string | null;
  test: boolean;
  testerEmail: string | null;
  smsConsentRequired: boolean;
}

export interface StepContext {
  run: RunInfo;
  step: AutomationStep;
  seq: number;
  effectKey: string;
  /** Read in this transaction and locked; never erased or archived (the executor stops those runs). */
  contact: StepContactRow | null;
  outputs: Outputs;
  billing: Billing;
  providers: Providers;
  config: Config;
  signal: AbortSignal;
  /** For work done before the step's transaction (prepare), such as loading secrets. */
  db: Db;
}

export type StepOutcome =
  | { kind: 'ok'; output?: Record<string, unknown>; outbox?: boolean; branch?: string }
  | { kind: 'skipped'; error: string }
  | { kind: 'failed'; error: string }
  | { kind: 'wait'; due: Date }
  | { kind: 'end' }
  /** The account is not active: the step's transaction rolls back and the run is held. */
  | { kind: 'held' };

export interface StepKind {
  prepare?(ctx: Omit<StepContext, 'contact'> & { contact: StepContactRow | null }): Promise<unknown>;
  apply(tx: Queryable, ctx: StepContext, prepared: unknown): Promise<StepOutcome>;
}

const NO_CONTACT = 'Skipped: no contact';
/** Test runs show what would be sent, to the tester only, and change no records. */
const TEST_NO_CHANGE = 'Skipped: a test run changes no records';

const view = (ctx: StepContext) => templateView(ctx.contact, ctx.outputs);

async function send(
  tx: Queryable,
  ctx: StepContext,
  channel: Channel,
  to: string,
  subject: string | null,
  body: string,
  key = ctx.effectKey,
  headers: Record<string, string> = {},
): Promise<string> {
  const m = await enqueueMessage(tx, {
    accountId: ctx.run.accountId,
    channel,
    to,
    subject,
    body,
    headers,
    automationRunId: ctx.run.runId,
    stepId: ctx.step.id,
    effectKey: key,
  });
  return m.id;
}

// Automation email to a contact is marketing email: it carries List-Unsubscribe (one-click) and an
// unsubscribe link that sets the contact's email opt-out. Test runs go to the tester only: no link.
const emailSend: StepKind = {
  async prepare(ctx) {
    if (!ctx.contact || ctx.run.test) return null;
    return unsubscribeHeaders(ctx.db, ctx.config, ctx.run.accountId, ctx.contact.id);
  },
  async apply(tx, ctx, prepared) {
    if (!ctx.contact) return { kind: 'skipped', error: NO_CONTACT };
    const why = emailSuppression(ctx.contact);
    if (why) return { kind: 'skipped', error: why };
    const to = ctx.run.test ? ctx.run.testerEmail : ctx.contact.email;
    if (!to) return { kind: 'failed', error: 'the test run has no tester address' };
    const subject = renderPlain(ctx.step.config.subject, view(ctx), 'subject');
    const unsub = prepared as { headers: Record<string, string>; link: string } | null;
    const body = renderHtml(ctx.step.config.body, view(ctx), 'body');
    const id = unsub
      ? await send(tx, ctx, 'email', to, subject, withUnsubscribeLink(body, unsub.link), ctx.effectKey, unsub.headers)
      : await send(tx, ctx, 'email', to, ctx.run.test ? `[Test] ${subject}` : subject, body);
    return { kind: 'ok', outbox: true, output: { outbox_id: id } };
  },
};

const smsSend: StepKind = {
  async apply(tx, ctx) {
    if (!ctx.contact) return { kind: 'skipped', error: NO_CONTACT };
    const why = smsSuppression(ctx.contact, ctx.run.smsConsentRequired);
    if (why) return { kind: 'skipped', error: why };
    const body = renderPlain(ctx.step.config.body, view(ctx), 'body');
    if (!ctx.run.test) {
      // Texts are billed per segment, in the transaction that queues the message and under the
      // step's effect key: a resumed step never bills twice, and a refused charge queues nothing.
      const micros = smsSegments(body).segments * ctx.config.delivery.smsMicrosPerSegment;
      const charged = await ctx.billing.charge(
        { accountId: ctx.run.accountId, keyId: ctx.run.keyId, automationRunId: ctx.run.runId, feature: 'sms', micros, effectKey: ctx.effectKey },
        tx,
      );
      if (!charged.ok) {
        // The account stopped being active since the step's transaction began: nothing is sent
        // or billed, and the run is held (or stopped, if the account was closed).
        if (charged.reason === 'account') return { kind: 'held' };
        if (isLimitRefusal(charged.reason)) await ctx.billing.recordStop(ctx.run.accountId, ctx.run.keyId, charged.reason, tx);
        return { kind: 'failed', error: `Not sent: ${LIMIT_MESSAGES[charged.reason].replace(/^Stopped: /, '')}` };
      }
    }
    // A tester has an email address, not a phone on file: the text comes to them as an email.
    const id = ctx.run.test
      ? ctx.run.testerEmail
        ? await send(tx, ctx, 'email', ctx.run.testerEmail, '[Test] Text message', body)
        : null
      : await send(tx, ctx, 'sms', ctx.contact.phone!, null, body);
    if (id === null) return { kind: 'failed', error: 'the test run has no tester address' };
    return { kind: 'ok', outbox: true, output: { outbox_id: id } };
  },
};

const wait: StepKind = {
  async apply(tx, ctx) {
    const spec = waitSpec(ctx.step.config);
    if ('error' in spec) return { kind: 'failed', error: spec.error };
    // From the step's start, so a wait resumed after a crash does not start over.
    const { due, now } = await waitDue(tx, ctx.run.accountId, ctx.run.runId, ctx.seq, spec.interval, spec.until);
    if (due.getTime() <= now.getTime()) return { kind: 'ok', output: { until: due.toISOString() } };
    return { kind: 'wait', due };
  },
};

const branch: StepKind = {
  async apply(_tx, ctx) {
    const r = evaluateCondition(ctx.step.config, ctx.contact);
    if ('error' in r) return { kind: 'failed', error: r.error };
    const label = r.result ? 'yes' : 'no';
    return { kind: 'ok', branch: label, output: { branch: label } };
  },
};

const end: StepKind = { apply: async () => ({ kind: 'end' }) };

const tagAdd: StepKind = {
  async apply(tx, ctx) {
    const tag = ctx.step.config.tag;
    if (typeof tag !== 'string' || !tag.trim()) return { kind: 'failed', error: 'config.tag must be a non-empty string' };
    if (!ctx.contact) return { kind: 'skipped', error: NO_CONTACT };
    if (ctx.run.test) return { kind: 'skipped', error: TEST_NO_CHANGE };
    await addContactTag(tx, ctx.run.accountId, ctx.contact.id, tag.trim());
    return { kind: 'ok' };
  },
};

const fieldSet: StepKind = {
  async apply(tx, ctx) {
    const { field, value } = ctx.step.config;
    if (typeof field !== 'string' || !(STEP_SETTABLE_FIELDS as readonly string[]).includes(field)) {
      return { kind: 'failed', error: `config.field must be one of ${STEP_SETTABLE_FIELDS.join(', ')}` };
    }
    if (value !== null && typeof value !== 'string') return { kind: 'failed', error: 'config.value must be a string or null' };
    if (!ctx.contact) return { kind: 'skipped', error: NO_CONTACT };
    const v = value === null ? null : renderPlain(value, view(ctx), 'value').trim() || null;
    if (field === 'lifecycle_stage' && v !== null && !(LIFECYCLE_STAGES as readonly string[]).includes(v)) {
      return { kind: 'failed', error: `${JSON.stringify(v)} is not a lifecycle stage (${LIFECYCLE_STAGES.join(', ')})` };
    }
    if (ctx.run.test) return { kind: 'skipped', error: TEST_NO_CHANGE };
    // The column name comes from the allow-list above, never from the config as written.
    await setContactField(tx, ctx.run.accountId, ctx.contact.id, field as StepSettableField, v);
    return { kind: 'ok' };
  },
};

const taskCreate: StepKind = {
  async apply(tx, ctx) {
    // The step's name stands in as written (a label, not a template) when no title is set.
    const title = (ctx.step.config.title === undefined ? ctx.step.name : renderPlain(ctx.step.config.title, view(ctx), 'title')).trim().slice(0, 500);
    if (!title) return { kind: 'failed', error: 'config.title must be a non-empty string' };
    if (ctx.run.test) return { kind: 'skipped', error: TEST_NO_CHANGE };
    const description = renderPlain(ctx.step.config.description ?? '', view(ctx), 'description');
    // The same statement as the hub's items: the project's next number, in this step's transaction.
    const task = await insertWorkItem(tx, taskOf(ctx.run.accountId, ctx.run.projectId, title, description));
    if (!task) return { kind: 'skipped', error: 'Skipped: project has no work management' };
    return { kind: 'ok', output: { key: `${task.prefix}-${task.number}` } };
  },
};

const notifyTeam: StepKind = {
  async apply(tx, ctx) {
    const users = ctx.run.test
      ? ctx.run.testerEmail
        ? [{ id: 'tester', email: ctx.run.testerEmail }]
        : []
      : await teamOf(tx, ctx.run.accountId);
    // The step's name stands in as written (a label, not a template) when no subject is set.
    const subject = ctx.step.config.subject === undefined ? ctx.step.name : renderPlain(ctx.step.config.subject, view(ctx), 'subject');
    const body = renderPlain(ctx.step.config.body ?? ctx.step.config.message ?? '', view(ctx), 'body');
    // One message per person, each with its own effect key under the step's.
    for (const u of users) await send(tx, ctx, 'team', u.email, ctx.run.test ? `[Test] ${subject}` : subject, body, `${ctx.effectKey}:${u.id}`);
    return { kind: 'ok', outbox: users.length > 0, output: { recipients: users.length } };
  },
};

interface AiPrepared {
  text: string;
  tokens: number;
  micros: number;
  /** The LLM provider that wrote it (`local`: the development one). */
  provider: string;
}

const aiWrite: StepKind = {
  // The model is called outside any transaction; the charge and the step's `ok` commit together
  // under the step's effect key, so a crash in between re-asks the model but never bills twice.
  async prepare(ctx): Promise<AiPrepared | { limit: string } | { error: string }> {
    const prompt = renderPlain(ctx.step.config.prompt, templateView(ctx.contact, ctx.outputs), 'prompt');
    if (!prompt.trim()) return { error: 'config.prompt must be a non-empty string' };
    const price = ctx.config.llm.microsPer1kTokens;
    let maxTokens = typeof ctx.step.config.max_tokens === 'number' ? Math.max(1, Math.floor(ctx.step.config.max_tokens)) : 1_024;
    if (price > 0) {
      const room = await ctx.billing.headroom(ctx.run.accountId, ctx.run.keyId);
      const left = Math.floor((room * 1000) / price) - estimateTokens(prompt);
      if (left < 1) {
        await ctx.billing.recordStop(ctx.run.accountId, ctx.run.keyId);
        return { limit: LIMIT_MESSAGES.spend };
      }
      maxTokens = Math.min(maxTokens, left);
    }
    try {
      const res = await ctx.providers.llm.complete({ prompt, maxTokens, signal: ctx.signal });
      const tokens = res.inputTokens + res.outputTokens;
      return { text: res.text, tokens, micros: tokenMicros(tokens, price), provider: ctx.providers.llm.name };
    } catch (err) {
      return { error: (err as Error).message };
    }
  },
  async apply(tx, ctx, prepared) {
    const p = prepared as AiPrepared | { limit: string } | { error: string };
    if ('limit' in p) return { kind: 'failed', error: p.limit };
    if ('error' in p) return { kind: 'failed', error: p.error };
    if (p.micros > 0) {
      const charged = await ctx.billing.charge(
        { accountId: ctx.run.accountId, keyId: ctx.run.keyId, automationRunId: ctx.run.runId, feature: 'llm.tokens', micros: p.micros, effectKey: ctx.effectKey },
        tx,
      );
      if (!charged.ok) {
        // The account stopped being active since the step's transaction began: nothing is sent
        // or billed, and the run is held (or stopped, if the account was closed).
        if (charged.reason === 'account') return { kind: 'held' };
        if (isLimitRefusal(charged.reason)) await ctx.billing.recordStop(ctx.run.accountId, ctx.run.keyId, charged.reason, tx);
        return { kind: 'failed', error: LIMIT_MESSAGES[charged.reason] };
      }
    }
    return { kind: 'ok', output: { text: p.text, tokens: p.tokens, micros: p.micros, provider: p.provider } };
  },
};

export const STEP_KINDS: ReadonlyMap<string, StepKind> = new Map<string, StepKind>([
  ['email.send', emailSend],
  ['sms.send', smsSend],
  ['wait', wait],
  ['ai.write', aiWrite],
  ['notify.team', notifyTeam],
  ['task.create', taskCreate],
  ['tag.add', tagAdd],
  ['field.set', fieldSet],
  ['branch', branch],
  ['end', end],
]);
