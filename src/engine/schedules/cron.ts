// Cron expressions for workflow schedules (croner: standard 5-field cron, optional seconds, IANA
// time zones). The next occurrence is always strictly after `from`.
import { Cron } from 'croner';

/** null when the expression and zone are acceptable, else why not. */
export function cronProblem(expr: string, timezone: string): string | null {
  try {
    const c = new Cron(expr, { timezone, paused: true });
    if (!c.nextRun(new Date())) return 'never fires';
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export function nextOccurrence(expr: string, timezone: string, from: Date): Date | null {
  return new Cron(expr, { timezone, paused: true }).nextRun(from) ?? null;
}

/** The next `n` occurrences strictly after `from` (fewer when the expression stops firing). */
export function nextOccurrences(expr: string, timezone: string, from: Date, n: number): Date[] {
  return new Cron(expr, { timezone, paused: true }).nextRuns(n, from);
}
