// How long the shared rate-limit store takes to answer, kept small and O(1) per answer: a fixed
// array of buckets, 1 ms wide up to 50 ms, then 5% wide (so a percentile read from it is within
// 5% above the true value), up to about a minute, then one overflow bucket. The deadline
// (SWITCHBOARD_RATE_LIMIT_TIMEOUT_MS) is set from these figures; `npm run bench` reads them from
// the log line FallbackCounter writes.

const LINEAR_MS = 50;
const GROWTH = 1.05;
const BUCKETS = LINEAR_MS + Math.ceil(Math.log(60_000 / LINEAR_MS) / Math.log(GROWTH)) + 2;

/** The bucket of a time in ms: the first whose upper bound is at least ms. */
function bucketOf(ms: number): number {
  if (ms <= LINEAR_MS) return Math.max(0, Math.ceil(ms));
  return Math.min(BUCKETS - 1, LINEAR_MS + Math.ceil(Math.log(ms / LINEAR_MS) / Math.log(GROWTH)));
}

/** The largest time a bucket holds (its upper bound), in whole ms. */
function upperOf(i: number): number {
  return i <= LINEAR_MS ? i : Math.ceil(LINEAR_MS * GROWTH ** (i - LINEAR_MS));
}

export interface LatencySummary {
  answers: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  max_ms: number;
}

export class LatencyHistogram {
  private readonly counts = new Uint32Array(BUCKETS);
  private n = 0;
  private max = 0;

  record(ms: number): void {
    this.counts[bucketOf(ms)]!++; // bucketOf is within [0, BUCKETS)
    this.n++;
    if (ms > this.max) this.max = ms;
  }

  get total(): number {
    return this.n;
  }

  /** The time within which a share q (0–1) of the answers came: a bucket's upper bound, never above the slowest seen. */
  percentile(q: number): number {
    if (this.n === 0) return 0;
    const rank = Math.ceil(q * this.n);
    let seen = 0;
    for (const [i, count] of this.counts.entries()) {
      seen += count;
      if (seen >= rank) return Math.min(upperOf(i), this.max);
    }
    return this.max;
  }

  summary(): LatencySummary {
    return {
      answers: this.n,
      p50_ms: this.percentile(0.5),
      p90_ms: this.percentile(0.9),
      p99_ms: this.percentile(0.99),
      max_ms: Math.round(this.max),
    };
  }
}
