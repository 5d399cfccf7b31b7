// What the app is built from: the config and the shared services every route registrar receives.
// Its own module so route files can name it without importing the app factory (which imports them).
import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import type { PageRenderer } from '../lib/page-renderer.js';
import type { PeekableCounter, WindowCounter } from '../limits/window-counter.js';
import type { CursorCodec } from './cursor.js';
import type { Retirement } from './retirements.js';
import type { DrainState } from './load-shedding.js';
import type { Metrics } from '../lib/metrics.js';

export interface AppDeps {
  config: Config;
  db: Db;
  /** Per-key request windows, and failed-auth windows (per address; the hub's sign-in failures). */
  counters: { requests: WindowCounter; failedAuth: PeekableCounter };
  cursors: CursorCodec;
  /** Converts pages (Markdown/HTML) off the event loop. */
  pages: PageRenderer;
  retirements?: readonly Retirement[];
  /** fastify logger options; false (tests) silences it. */
  logger?: FastifyServerOptions['logger'];
  https?: { cert: Buffer; key: Buffer } | null;
  /** How a held sign-in waits (src/hub/session/throttle.ts); a timer unless given (tests record it instead). */
  pause?: (ms: number) => Promise<unknown>;
  /** Set by serve on its first SIGTERM: /readyz answers 503 while requests are still served. */
  drain?: DrainState;
  /** The process's metrics, when it serves them (SWITCHBOARD_METRICS_ADDR): requests, refusals, load. */
  metrics?: Metrics;
  /** Run when the app closes (timers and the like the caller started); read at close time. */
  onClose?: (() => void | Promise<void>)[];
}
