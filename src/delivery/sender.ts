// The sender (docs/architecture.md §11, transactional outbox): delivers the rows send steps wrote,
// queued → sending → sent | failed. It claims only as many rows as it sends at once, so a crash
// leaves at most that many rows `sending`; those (found at start, and periodically, once older than
// the stuck timeout) become `unknown` and are never re-sent by anything automatic. Any number of
// senders may share a PostgreSQL database: SKIP LOCKED claims keep each row with one of them.
// A refusal that may pass (transports/errors.ts: `retry`) puts the row back in the queue, due
// after an exponential backoff with jitter (at least the server's Retry-After), until the
// attempts or the retry window are spent; then it is failed. Every attempt is a fresh claim, so
// the account's state and the contact's suppression are checked again before each one.
// It claims through OUTBOX (store.ts: the outbox in src/queue's Queue shape) in a loop of its own
// rather than in the engine's slots: it has its own concurrency, a claim is one attempt with no
// lease to renew, and a batch is settled before the next is claimed.
import type { Metrics } from '../lib/metrics.js';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import { Waker } from '../queue/waker.js';
import { silentLog, type EngineLog } from '../queue/log.js';
import { OUTBOX_CHANNEL } from '../queue/channels.js';
import { emailSuppression, smsSuppression } from './suppression.js';
import { maskAddress, redactAddresses } from './mask.js';
import { ACCOUNT_CLOSED_REASON } from '../accounts/activity.js';
import { markOrphansUnknown, OUTBOX, requeueMessage, settleMessage, type ClaimedMessage, type Outcome } from './store.js';
import { reflectDelivery } from './step-store.js';
import { DeliveryError } from './transports/errors.js';
import { createTransports, transportFor, type Transports } from './transports/index.js';
import { backoffMs } from '../lib/retry.js';

export { messageStatusForStep, messageStatusesForRun, type StepMessageStatus } from './store.js';

export interface SenderOptions {
  db: Db;
  transports: Transports;
  log?: EngineLog;
  /** Messages sent at once (and so claimed at once). */
  concurrency?: number;
  /** Idle poll interval; NOTIFY on OUTBOX_CHANNEL wakes the sender sooner. */
  pollMs?: number;
  /** One send may take this long before it is settled `unknown` (transports time out sooner). */
  sendTimeoutMs?: number;
  /** A row `sending` for longer than this belongs to a dead sender: it becomes `unknown`. */
  stuckAfterMs?: number;
  /**
   * At start, which `sending` rows are orphans: 'all' when this process is the only one that can
   * open the store (PGlite: any `sending` row was left by a previous process), 'stale' (older
   * than stuckAfterMs) when other senders may be mid-send right now (PostgreSQL).
   */
  orphansAtStart?: 'all' | 'stale';
  /** How long stop() lets in-flight sends finish so their outcomes are recorded. */
  stopGraceMs?: number;
  /** Attempts per message, the first included (SWITCHBOARD_SEND_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** No attempt is made later than this after the first (SWITCHBOARD_SEND_RETRY_WINDOW_MS). */
  retryWindowMs?: number;
  /** The first retry waits about this long; each next one twice as long (jittered), up to retryMaxDelayMs. */
  retryBaseMs?: number;
  retryMaxDelayMs?: number;
  /** The process's metrics, when it serves them: sends by channel and outcome. */
  metrics?: Metrics;
}

/** A refusal that may pass, as the transport reported it. */
interface RetryAnswer {
  status: 'retry';
  transport: string;
  error: string;
  reason: string;
  retryAfterMs: number | null;
}
type Answer = Outcome | RetryAnswer;

export interface SenderStats {
  sent: number;
  failed: number;
  unknown: number;
  /** Attempts refused in a way that may pass, put back in the queue for a later attempt. */
  retried: number;
  /** Rows found mid-send (a previous sender died) and called unknown. */
  orphaned: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export class Sender {
  readonly stats: SenderStats = { sent: 0, failed: 0, unknown: 0, retried: 0, orphaned: 0 };
  private readonly db: Db;
  private readonly transports: Transports;
  private readonly log: EngineLog;
  private readonly concurrency: number;
  private readonly sendTimeoutMs: number;
  private readonly stuckAfterMs: number;
  private readonly orphansAtStart: 'all' | 'stale';
  private readonly stopGraceMs: number;
  private readonly maxAttempts: number;
  private readonly retryWindowMs: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxDelayMs: number;
  private readonly metrics: Metrics | undefined;
  private readonly waker: Waker;
  private reaper: NodeJS.Timeout | null = null;
  private loop: Promise<void> | null = null;
  private stopping = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** Written into claimed_by, so this sender's reaper never takes its own sends for orphans. */
  readonly owner = `${process.pid}:${randomBytes(4).toString('hex')}`;

  constructor(opts: SenderOptions) {
    this.db = opts.db;
    this.transports = opts.transports;
    this.log = opts.log ?? silentLog;
    this.metrics = opts.metrics;
    this.concurrency = opts.concurrency ?? 4;
    this.sendTimeoutMs = opts.sendTimeoutMs ?? 30_000;
    this.stuckAfterMs = opts.stuckAfterMs ?? 300_000;
    this.orphansAtStart = opts.orphansAtStart ?? (opts.db.capabilities.multiProcess ? 'stale' : 'all');
    this.stopGraceMs = opts.stopGraceMs ?? this.sendTimeoutMs + 1_000;
    this.maxAttempts = opts.maxAttempts ?? 8;
    this.retryWindowMs = opts.retryWindowMs ?? 86_400_000;
    this.retryBaseMs = opts.retryBaseMs ?? 30_000;
    this.retryMaxDelayMs = opts.retryMaxDelayMs ?? 3_600_000;
    this.waker = new Waker(this.db, opts.pollMs ?? 500, this.log, OUTBOX_CHANNEL);
  }

  /** The development transports in use (named in the start-up banner). */
  get developmentTransports(): string[] {
    return (['email', 'sms'] as const).filter((c) => this.transports[c].development);
  }

  async start(): Promise<void> {
    if (this.loop) throw new Error('the sender is already started');
    await this.reapOrphans(this.orphansAtStart === 'all' ? null : this.stuckAfterMs);
    await this.waker.start();
    // Periodically, for senders on other processes that died (PostgreSQL); cheap: a partial index.
    const every = Math.max(1_000, Math.min(60_000, Math.floor(this.stuckAfterMs / 2)));
    this.reaper = setInterval(() => void this.reapOrphans(this.stuckAfterMs), every);
    this.reaper.unref();
    this.loop = this.run();
    this.log.info({ concurrency: this.concurrency, email: this.transports.email.name, sms: this.transports.sms.name }, 'sender started');
  }

  /** No new claims; in-flight sends get stopGraceMs to finish and record their outcome. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.reaper) clearInterval(this.reaper);
    await this.waker.stop();
    await this.loop;
    await Promise.race([Promise.allSettled([...this.inFlight]), sleep(this.stopGraceMs)]);
    // Rows still sending now stay `sending`; the next start (or another sender's reaper) calls them unknown.
    for (const t of new Set([this.transports.email, this.transports.sms])) await t.close?.();
    this.log.info({ ...this.stats }, 'sender stopped');
  }

  /** Wakes the sender now (after a local enqueue; NOTIFY does the same across processes). */
  wake(): void {
    this.waker.wake();
  }

  /**
   * Claims and sends one batch; resolves when every message of it is settled. Returns how many
   * were claimed. Tests drive the sender with this, without the loop.
   */
  async sendBatch(limit = this.concurrency): Promise<number> {
    const rows = await OUTBOX.claim(this.db, this.owner, this.stuckAfterMs, limit);
    await Promise.all(
      rows.map((r) => {
        // A closed account's messages end here, unsent (accounts/activity.ts).
        if (r.account_closed) return this.track(this.record(r, 'none', { status: 'failed', transport: 'none', error: ACCOUNT_CLOSED_REASON, reason: 'account closed' }));
        const why = suppressedNow(r);
        // Nothing leaves for a contact who opted out, replied STOP or was put on do-not-contact
        // after the step queued the message: it is settled failed, with the reason, unsent.
        return this.track(why ? this.record(r, 'none', { status: 'failed', transport: 'none', error: why, reason: why }) : this.deliver(r));
      }),
    );
    return rows.length;
  }

  /** Sends until nothing is queued (tests and tools). */
  async drain(): Promise<number> {
    let total = 0;
    for (let n = await this.sendBatch(); n > 0; n = await this.sendBatch()) total += n;
    return total;
  }

  /** Calls `sending` rows older than olderThanMs (null: all of them) unknown. */
  async reapOrphans(olderThanMs: number | null): Promise<number> {
    try {
      // The rows and their runs' steps change together: a run must not end `succeeded` past a
      // message that became unknown.
      const rows = await this.db.transaction(async (tx) => {
        const found = await markOrphansUnknown(tx, olderThanMs, this.owner);
        for (const r of found) if (r.automation_run_id && r.step_id && r.effect_key) await reflectDelivery(tx, r.account_id, r.automation_run_id, r.step_id, r.effect_key);
        return found;
      });
      if (rows.length) {
        this.stats.orphaned += rows.length;
        this.log.warn({ count: rows.length, ids: rows.slice(0, 20).map((r) => r.id) }, 'messages caught mid-send are now unknown (not resent)');
      }
      return rows.length;
    } catch (err) {
      this.log.error({ err }, 'marking orphaned sends unknown failed');
      return 0;
    }
  }

  private track(p: Promise<void>): Promise<void> {
    this.inFlight.add(p);
    return p.finally(() => this.inFlight.delete(p));
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let claimed = 0;
      try {
        claimed = await this.sendBatch();
      } catch (err) {
        // The store is down or busy: the next poll tries again.
        this.log.error({ err }, 'claiming outbox rows failed');
      }
      // A full batch: there may be more queued; look again at once.
      if (claimed > 0 && !this.stopping) continue;
      await this.waker.wait();
    }
  }

  private async deliver(m: ClaimedMessage): Promise<void> {
    const transport = transportFor(this.transports, m.channel);
    // (Inside a promise: a transport that throws at once is an answer like any other.)
    const sending = Promise.resolve().then(() =>
      transport.send({ to: m.to_address, subject: m.subject, body: m.body, headers: m.headers ?? {}, messageId: m.message_id }),
    );
    // The transport's own answer, as an outcome; handled from the start, so a rejection that comes
    // after the guard gave up is never unhandled.
    const answer: Promise<Answer> = sending.then(
      () => ({ status: 'sent', transport: transport.name }),
      (err): Answer => {
        const e =
          err instanceof DeliveryError
            ? err
            : new DeliveryError(`Delivery outcome unknown: ${errorText(err)}; not resent`, 'unknown', { reason: `the ${transport.name} transport failed unexpectedly` });
        if (e.outcome === 'retry') return { status: 'retry', transport: transport.name, error: e.message, reason: e.reason, retryAfterMs: e.retryAfterMs };
        return { status: e.outcome, transport: transport.name, error: e.message, reason: e.reason };
      },
    );
    // A guard above the transport's own timeouts: a send that hangs anyway is recorded `unknown`
    // (visible at once, never resent). It keeps its slot until the transport settles, though: the
    // connection is still busy, and freeing the slot would let more sends pile onto a transport
    // that has stopped answering.
    let timer: NodeJS.Timeout | undefined;
    const guard = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.sendTimeoutMs + 1_000);
    });
    const first = await Promise.race([answer, guard]);
    clearTimeout(timer);
    if (first) {
      await this.record(m, transport.name, first);
      return;
    }
    await this.record(m, transport.name, {
      status: 'unknown',
      transport: transport.name,
      error: `Delivery outcome unknown: no answer from the ${transport.name} transport within ${this.sendTimeoutMs} ms; not resent`,
      reason: `no answer from the ${transport.name} transport within ${this.sendTimeoutMs} ms`,
    });
    // Hold the slot until the late answer, bounded by the stuck timeout (a transport that never
    // settles must not hold it forever). A definite late answer replaces the unknown.
    let lateTimer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      answer,
      new Promise<null>((resolve) => {
        lateTimer = setTimeout(() => resolve(null), this.stuckAfterMs);
        lateTimer.unref();
      }),
    ]);
    clearTimeout(lateTimer);
    if (late && late.status !== 'unknown') {
      this.stats.unknown--;
      await this.record(m, transport.name, late, true);
    } else if (!late) {
      this.log.error({ messageId: m.id, transport: transport.name }, 'the transport never answered; its slot is freed');
    }
  }

  /**
   * What to do with a refusal that may pass: the delay before the next attempt, or null when the
   * attempts or the retry window are spent. Exponential from retryBaseMs with "equal jitter" (half
   * fixed, half random: senders that failed together do not all come back together), capped, and
   * never sooner than the server's Retry-After.
   */
  retryDelay(m: Pick<ClaimedMessage, 'attempts' | 'first_attempt_at'>, retryAfterMs: number | null): number | null {
    if (m.attempts >= this.maxAttempts) return null;
    const delay = Math.max(backoffMs(m.attempts, this.retryBaseMs, this.retryMaxDelayMs), retryAfterMs ?? 0);
    const windowEnd = new Date(m.first_attempt_at).getTime() + this.retryWindowMs;
    return Date.now() + delay > windowEnd ? null : delay;
  }

  /** A retry answer becomes a requeue (with its delay) or, with nothing left to try, a failure. */
  private decide(m: ClaimedMessage, answer: Answer): { outcome: Outcome } | { retry: RetryAnswer; delay: number } {
    if (answer.status !== 'retry') return { outcome: answer };
    const delay = this.retryDelay(m, answer.retryAfterMs);
    if (delay !== null) return { retry: answer, delay };
    // (With a single attempt allowed there was nothing to give up on: the answer says it all.)
    const why =
      m.attempts < this.maxAttempts ? ` (gave up: the retry window (${this.retryWindowMs} ms) is spent)` : m.attempts > 1 ? ` (gave up: after ${m.attempts} attempts)` : '';
    return { outcome: { status: 'failed', transport: answer.transport, error: `${answer.error}${why}`, reason: answer.reason } };
  }

  /** Counts, logs and stores one answer (a late definite answer replaces an unknown). */
  private async record(m: ClaimedMessage, transportName: string, answer: Answer, late = false): Promise<void> {
    const d = this.decide(m, answer);
    const ctx = { messageId: m.id, channel: m.channel, to: maskAddress(m.to_address), transport: transportName, attempt: m.attempts };
    this.metrics?.send(m.channel, 'retry' in d ? 'retry' : d.outcome.status);
    if ('retry' in d) {
      this.stats.retried++;
      this.log.info({ ...ctx, status: 'retry', error: redactAddresses(d.retry.error), retryInMs: d.delay }, 'message refused for now; retrying later');
    } else {
      this.stats[d.outcome.status]++;
      if (d.outcome.status === 'sent') this.log.debug({ ...ctx, status: 'sent' }, 'message delivered');
      else this.log.warn({ ...ctx, status: d.outcome.status, error: redactAddresses(d.outcome.error) }, 'message not delivered');
    }
    try {
      await this.db.transaction(async (tx) => {
        const done =
          'retry' in d ? await requeueMessage(tx, m, d.delay, d.retry.transport, d.retry.error, d.retry.reason) : await settleMessage(tx, m, d.outcome);
        // The run's step says what came of its message (a late answer may also take back an unknown).
        const final = 'outcome' in d && d.outcome.status !== 'sent';
        if (done && (final || late) && m.automation_run_id && m.step_id && m.effect_key) {
          await reflectDelivery(tx, m.account_id, m.automation_run_id, m.step_id, m.effect_key);
        }
      });
    } catch (err) {
      // The message went (or not) but the store did not take the outcome: the row stays
      // `sending` and becomes `unknown` later. Never sent again either way.
      this.log.error({ err, messageId: m.id }, 'recording a delivery outcome failed');
    }
    // A retry may be due before the next poll (a short backoff): look again then.
    if ('retry' in d && !this.stopping) setTimeout(() => this.waker.wake(), d.delay + 5).unref();
  }
}

function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/[\r\n]+/g, ' ').slice(0, 300);
}

/** The sender a server or worker process runs, with the transports its config names. */
export function createSender(db: Db, config: Config, log?: EngineLog, metrics?: Metrics): Sender {
  const d = config.delivery;
  return new Sender({
    db,
    metrics,
    transports: createTransports(d),
    log,
    concurrency: d.concurrency,
    pollMs: config.engine.pollMs,
    sendTimeoutMs: d.sendTimeoutMs,
    stuckAfterMs: d.stuckAfterMs,
    maxAttempts: d.sendMaxAttempts,
    retryWindowMs: d.sendRetryWindowMs,
  });
}

/**
 * Why this message must not go to its contact now (as the step's own check says it), or null: at
 * every attempt, and when a person re-sends it (services/messages).
 */
export function suppressedNow(m: Pick<ClaimedMessage, 'channel' | 'recipient'>): string | null {
  const r = m.recipient;
  if (!r) return null;
  const why = m.channel === 'email' ? emailSuppression(r) : m.channel === 'sms' ? smsSuppression(r, r.sms_consent_required) : null;
  return why ? why.replace(/^Skipped: /, 'Not sent: ') : null;
}
