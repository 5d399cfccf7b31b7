// One case: a discarded warm-up, then a timed autocannon run at N connections.
// Latencies are collected per response as floats: autocannon's own histogram keeps whole
// milliseconds, too coarse to compare a 1 ms p50 with a 1.4 ms one.
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationS: number;
  warmupS: number;
}

export interface Measurement {
  requests: number;
  durationS: number;
  reqPerSec: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Responses outside 2xx, plus connection errors and timeouts (all must be 0). */
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  // Nearest rank: the smallest value with at least p% of samples at or below it.
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

const round2 = (n: number) => Math.round(n * 100) / 100;

const base = (o: LoadOptions) => ({ url: o.url, headers: o.headers, connections: o.connections, timeout: 10 });

/** Load whose results are thrown away: JIT, the pool's connections, PostgreSQL's caches. */
export async function warmUp(o: LoadOptions): Promise<void> {
  if (o.warmupS > 0) await autocannon({ ...base(o), duration: o.warmupS });
}

export async function measure(o: LoadOptions): Promise<Measurement> {
  const latencies: number[] = [];
  const run = autocannon({ ...base(o), duration: o.durationS });
  run.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const res = await run;
  const sorted = Float64Array.from(latencies).sort();
  const statusCodes = Object.fromEntries(Object.entries(res.statusCodeStats).map(([k, v]) => [k, v.count]));
  return {
    requests: res.requests.total,
    durationS: res.duration,
    reqPerSec: Math.round(res.requests.total / res.duration),
    p50Ms: round2(percentile(sorted, 50)),
    p90Ms: round2(percentile(sorted, 90)),
    p99Ms: round2(percentile(sorted, 99)),
    maxMs: round2(sorted.length ? sorted[sorted.length - 1] : NaN),
    non2xx: res.non2xx,
    errors: res.errors,
    timeouts: res.timeouts,
    statusCodes,
  };
}
