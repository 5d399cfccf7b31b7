// serve's /metrics listener (SWITCHBOARD_METRICS_ADDR): a plain HTTP server of its own, never the
// public port, answering GET /metrics in Prometheus's text format and nothing else. prom-client
// is loaded only when metrics are on: a process without them starts as quickly as before.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Db } from '../db/db.js';
import type { Metrics, QueueReadiness } from '../lib/metrics.js';
import { WORKFLOW_RUNS } from '../queue/workflow-run-store.js';
import { AUTOMATION_RUNS } from '../queue/automation-run-store.js';
import { OUTBOX } from '../delivery/store.js';

/** Every queue the store holds, as the gauges label them. */
const QUEUES = [WORKFLOW_RUNS, AUTOMATION_RUNS, OUTBOX] as const;

export interface MetricsServer {
  metrics: Metrics;
  /** http://host:port, as bound (port 0 picks one). */
  address: string;
  close(): Promise<void>;
}

/** The store's queues, read once a scrape; a store that does not answer leaves the gauges out (logged once per outage). */
function queueSource(db: Db, log: Logger): () => Promise<QueueReadiness[]> {
  let failing = false;
  return async () => {
    try {
      const read = await Promise.all(QUEUES.map(async (q) => ({ queue: q.table, ...(await q.readiness(db)) })));
      failing = false;
      return read;
    } catch (err) {
      if (!failing) log.warn({ err }, 'metrics: could not read the queues; their gauges are left out until the store answers');
      failing = true;
      return [];
    }
  };
}

export async function startMetricsServer(at: { host: string; port: number }, db: Db, log: Logger): Promise<MetricsServer> {
  const { Metrics } = await import('../lib/metrics.js');
  const metrics = new Metrics();
  metrics.setSources({ queues: queueSource(db, log), pool: () => db.poolStats?.() ?? null });
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Only /metrics is served here.\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('GET /metrics\n');
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(req.method === 'HEAD' ? undefined : body),
      (err: unknown) => {
        log.error({ err }, 'metrics: rendering failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be read; the log says why.\n');
      },
    );
  });
  // A scraper is one trusted client: short deadlines, so a stuck connection cannot pile up.
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return {
    metrics,
    address: `http://${host}:${bound.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
