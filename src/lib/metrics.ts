// The process's metrics, in Prometheus's text format (prom-client), served only on their own
// listener (SWITCHBOARD_METRICS_ADDR, src/cli/metrics-server.ts), never on the public port.
//
// One registry per process (not prom-client's global one): tests run several apps in one process.
// Counters are this process's own (a scrape of each process, summed by Prometheus); the queue
// gauges read the store at scrape time, so every process reports the same store-wide values
// (take max, not sum, across processes). Labels are closed sets (route templates, never a URL
// with ids in it; queue, channel and outcome names), so no label grows with traffic.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** A queue the store holds: its ready items and how long the oldest has waited. */
export interface QueueReadiness {
  queue: string;
  depth: number;
  oldestSeconds: number;
}

/** The PostgreSQL pool's clients, and statements waiting in its pipelined lanes. */
export interface PoolStats {
  inUse: number;
  idle: number;
  waiting: number;
  laneDepth: number;
}

export interface MetricsSources {
  queues?: () => Promise<QueueReadiness[]>;
  pool?: () => PoolStats | null;
  /** The mean event-loop lag the load shedder acted on, in seconds. */
  shedLag?: () => number;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const WAIT_BUCKETS = [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600];

export class Metrics {
  readonly registry = new Registry();
  private sources: MetricsSources = {};

  private readonly requests = new Counter({ name: 'switchboard_http_requests_total', help: 'HTTP requests answered, by route template, method and status.', labelNames: ['method', 'route', 'status'], registers: [this.registry] });
  private readonly latency = new Histogram({ name: 'switchboard_http_request_duration_seconds', help: 'Time to answer an HTTP request, by route template, method and status.', labelNames: ['method', 'route', 'status'], buckets: LATENCY_BUCKETS, registers: [this.registry] });
  private readonly refusals = new Counter({ name: 'switchboard_refusals_total', help: 'Requests refused by a limiter (its error code) or shed for overload.', labelNames: ['limiter'], registers: [this.registry] });
  private readonly started = new Counter({ name: 'switchboard_runs_started_total', help: 'Runs this process claimed and started working, by queue.', labelNames: ['queue'], registers: [this.registry] });
  private readonly finished = new Counter({ name: 'switchboard_runs_worked_total', help: 'Runs this process finished working on, by queue and how it left them.', labelNames: ['queue', 'outcome'], registers: [this.registry] });
  private readonly claimWait = new Histogram({ name: 'switchboard_claim_wait_seconds', help: 'From a run being ready to this process claiming it, by queue.', labelNames: ['queue'], buckets: WAIT_BUCKETS, registers: [this.registry] });
  private readonly sends = new Counter({ name: 'switchboard_sends_total', help: 'Message send attempts this process made, by channel and outcome (sent, failed, unknown, retry).', labelNames: ['channel', 'outcome'], registers: [this.registry] });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    // The gauges' collect() runs with the gauge as `this`; what they read comes through these.
    const readiness = () => this.readiness();
    const sources = () => this.sources;
    const queueGauges: [string, string, (q: QueueReadiness) => number][] = [
      ['switchboard_queue_depth', 'Items ready to be worked now, by queue (store-wide; held accounts not counted).', (q) => q.depth],
      ['switchboard_queue_oldest_ready_seconds', 'How long the oldest ready item has waited, by queue (0 when none).', (q) => q.oldestSeconds],
    ];
    for (const [name, help, pick] of queueGauges) {
      new Gauge({
        name,
        help,
        labelNames: ['queue'],
        registers: [this.registry],
        async collect() {
          for (const q of (await readiness()) ?? []) this.set({ queue: q.queue }, pick(q));
        },
      });
    }
    new Gauge({
      name: 'switchboard_db_pool_clients',
      help: 'PostgreSQL pool clients by state (in_use, idle, waiting for a client) and statements queued in pipelined lanes (lane_queue).',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const p = sources().pool?.();
        if (!p) return;
        this.set({ state: 'in_use' }, p.inUse);
        this.set({ state: 'idle' }, p.idle);
        this.set({ state: 'waiting' }, p.waiting);
        this.set({ state: 'lane_queue' }, p.laneDepth);
      },
    });
    new Gauge({
      name: 'switchboard_event_loop_lag_seconds',
      help: 'Mean event-loop lag of the last second, as the load shedder sees it.',
      registers: [this.registry],
      collect() {
        this.set(sources().shedLag?.() ?? 0);
      },
    });
  }

  /** Where the gauges read from; set once the store and the app exist. */
  setSources(sources: MetricsSources): void {
    this.sources = { ...this.sources, ...sources };
  }

  /** One scrape reads the store once for both queue gauges. */
  private pending: Promise<QueueReadiness[] | null> | null = null;
  private readiness(): Promise<QueueReadiness[] | null> {
    if (!this.sources.queues) return Promise.resolve(null);
    this.pending ??= this.sources.queues().finally(() => setImmediate(() => (this.pending = null)));
    return this.pending;
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
  }
  refused(limiter: string): void {
    this.refusals.inc({ limiter });
  }
  runStarted(queue: string, waitedSeconds: number | null): void {
    this.started.inc({ queue });
    if (waitedSeconds !== null) this.claimWait.observe({ queue }, Math.max(0, waitedSeconds));
  }
  runWorked(queue: string, outcome: string): void {
    this.finished.inc({ queue, outcome });
  }
  send(channel: string, outcome: string): void {
    this.sends.inc({ channel, outcome });
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
