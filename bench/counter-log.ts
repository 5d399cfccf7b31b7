// What a serve process's log says about its shared rate-limit store: the answer-time line
// FallbackCounter writes at close (cumulative since start: answers, p50/p90/p99/max in ms, answers
// after the deadline, failures, hits answered by the fallback) and the number of "not answering"
// warnings. The deadline (SWITCHBOARD_RATE_LIMIT_TIMEOUT_MS) is set from these under load.
import fs from 'node:fs';

export interface CounterFigures {
  store: string;
  rateLimit: 'postgres' | 'redis';
  timeoutMs: number | null;
  answers: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers that came after the deadline. */
  late: number;
  failed: number;
  /** Hits answered by the process's own count (a timeout, a failure, or while degraded). */
  fallbacks: number;
  /** "the shared rate-limit store is not answering" warnings (at most one a minute). */
  warnings: number;
}

/** The figures of the last serve process that wrote to `file`, or null when it logged none. */
export function readCounterFigures(file: string, store: string, rateLimit: 'postgres' | 'redis'): CounterFigures | null {
  let stats: any = null;
  let warnings = 0;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('rate_limit_store')) continue;
    let o: any;
    try {
      o = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof o.msg !== 'string') continue;
    if (o.msg.includes('answer times')) stats = o;
    else if (o.msg.includes('not answering')) warnings++;
  }
  if (!stats) return null;
  return {
    store,
    rateLimit,
    timeoutMs: stats.timeout_ms ?? null,
    answers: stats.answers,
    p50Ms: stats.p50_ms,
    p90Ms: stats.p90_ms,
    p99Ms: stats.p99_ms,
    maxMs: stats.max_ms,
    late: stats.late,
    failed: stats.failed,
    fallbacks: stats.fallbacks,
    warnings,
  };
}

export function formatCounterFigures(figs: readonly CounterFigures[]): string {
  if (!figs.length) return '';
  const lines = figs.map(
    (f) =>
      `shared rate counter ${f.rateLimit} (on ${f.store}, deadline ${f.timeoutMs ?? '?'} ms): ${f.answers.toLocaleString('en-US')} answers, ` +
      `p50 ${f.p50Ms} ms, p90 ${f.p90Ms} ms, p99 ${f.p99Ms} ms, slowest ${f.maxMs} ms; ${f.late} after the deadline, ${f.failed} failed, ` +
      `${f.fallbacks} answered by the fallback, ${f.warnings} "not answering" warnings`,
  );
  return lines.join('\n');
}
