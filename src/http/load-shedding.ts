// Shedding load and draining: what the server answers when it cannot take more work, and while it
// is going away.
//
// Overload: while the event loop lags by more than config.http.shedEventLoopDelayMs (the mean
// lag of a one-second window, for two windows in a row) or the JS heap holds more than
// shedHeapUsedBytes, every request but /healthz is answered at once with 503 and Retry-After
// instead of queueing behind those the process cannot finish: answering "later" at once beats
// answering late. /readyz is shed too, so a balancer sends traffic elsewhere; /healthz never is,
// or a supervisor would restart a process that is only busy. Two windows, not one (as
// @fastify/under-pressure measures): one long synchronous step (a big query on the embedded
// store, a full GC) makes one huge sample, and would shed a second of requests from a process
// that is not overloaded at all.
//
// The body is the spec's: type `api_error`, code `internal_error` ("server-side failure; retry
// with backoff"), the one code the spec has for a fault on our side, so a client that branches on
// codes meets none it does not know; the status is 503, not 500, because nothing failed and the
// condition passes: proxies and HTTP clients read 503 + Retry-After as "try again shortly". This
// is the one place a catalogue code leaves with another status than its entry's.
//
// Draining: from the first SIGTERM (serve.ts), /readyz answers 503 while every other request is
// still served for SWITCHBOARD_DRAIN_DELAY_MS, and answers carry `Connection: close` so keep-alive
// clients reconnect to a process that stays.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import type { HttpConfig } from '../config.js';
import { toErrorBody } from './errors.js';
import type { App } from './route-kit.js';

/** Seconds a shed client is told to wait. */
export const SHED_RETRY_AFTER_S = 5;
export const OVERLOAD_STATUS = 503;
/** How often the load is looked at. */
export const LOAD_SAMPLE_MS = 1_000;

/** Whether the process is draining: set once by serve on its first SIGTERM, read by /readyz. */
export class DrainState {
  private since: number | null = null;
  start(): void {
    this.since ??= Date.now();
  }
  get draining(): boolean {
    return this.since !== null;
  }
}

/** Why a request was shed (metrics count by it). */
export type ShedReason = 'event_loop_delay' | 'heap_used';

/** The process's load, sampled every LOAD_SAMPLE_MS; `pressure` says why requests are shed now, if they are. */
export class LoadMonitor {
  pressure: ShedReason | null = null;
  /** The mean event-loop lag of the last window, in ms (metrics read it too). */
  lagMs = 0;
  private readonly histogram = monitorEventLoopDelay({ resolution: 10 });
  private readonly timer: NodeJS.Timeout;
  private laggedWindows = 0;

  constructor(private readonly limits: Pick<HttpConfig, 'shedEventLoopDelayMs' | 'shedHeapUsedBytes'>) {
    this.histogram.enable();
    this.timer = setInterval(() => this.sample(), LOAD_SAMPLE_MS);
    this.timer.unref();
  }

  private sample(): void {
    this.lagMs = this.histogram.count ? this.histogram.mean / 1e6 : 0;
    this.histogram.reset();
    const { shedEventLoopDelayMs, shedHeapUsedBytes } = this.limits;
    this.laggedWindows = shedEventLoopDelayMs && this.lagMs > shedEventLoopDelayMs ? this.laggedWindows + 1 : 0;
    if (shedHeapUsedBytes && process.memoryUsage().heapUsed > shedHeapUsedBytes) this.pressure = 'heap_used';
    else this.pressure = this.laggedWindows >= 2 ? 'event_loop_delay' : null;
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }
}

export function shedBody(request: FastifyRequest) {
  return toErrorBody(new ApiError('internal_error', `The server is overloaded; retry after ${SHED_RETRY_AFTER_S} seconds.`), request.id);
}

/** The first request hooks: drain's Connection: close, then shedding (a shed request costs only its answer). */
export function installLoadShedding(
  app: App,
  http: HttpConfig,
  drain: DrainState | undefined,
  onShed: (reason: ShedReason) => void = () => {},
): LoadMonitor | null {
  if (drain) {
    app.addHook('onSend', async (_request, reply, payload) => {
      if (drain.draining) void reply.header('connection', 'close');
      return payload;
    });
  }
  if (!http.shedEventLoopDelayMs && !http.shedHeapUsedBytes) return null;
  const monitor = new LoadMonitor(http);
  app.addHook('onClose', async () => monitor.stop());
  app.addHook('onRequest', async (request, reply) => {
    const reason = monitor.pressure;
    // Liveness is answered whatever the load.
    if (!reason || request.url === '/healthz') return;
    onShed(reason);
    return reply.code(OVERLOAD_STATUS).header('retry-after', String(SHED_RETRY_AFTER_S)).header('x-request-id', request.id).send(shedBody(request));
  });
  return monitor;
}
