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

const HOW = "use five fields, minute hour day month weekday, e.g. '0 9 * * 1' for Mondays at 9:00";

/**
 * Why a schedule cannot run, in words a person reads (not the cron library's), or null when it
 * can: the one sentence every caller shows (workflow definitions and schedules, the builder's
 * preview, an automation's schedule trigger).
 */
export function scheduleWords(expr: string, timezone: string): string | null {
  if (cronProblem('* * * * *', timezone)) return zoneWords(timezone);
  const problem = cronProblem(expr, timezone);
  if (problem === null) return null;
  const shown = `'${expr.trim()}'`;
  if (problem === 'never fires') return `The schedule ${shown} never comes round (it names a date that does not exist, such as 31 February).`;
  const value = /Invalid value for (\w+): (.+)$/i.exec(problem);
  if (value) return `The schedule ${shown} is not valid: ${value[2]} is not a possible ${value[1]}; ${HOW}.`;
  return `The schedule ${shown} is not valid: ${HOW}.`;
}

/** Words for a time zone the server does not know. */
export function zoneWords(timezone: string): string {
  return `'${timezone}' is not a time zone: use a name such as Europe/Paris or America/New_York.`;
}

export function nextOccurrence(expr: string, timezone: string, from: Date): Date | null {
  return new Cron(expr, { timezone, paused: true }).nextRun(from) ?? null;
}

/** The next `n` occurrences strictly after `from` (fewer when the expression stops firing). */
export function nextOccurrences(expr: string, timezone: string, from: Date, n: number): Date[] {
  return new Cron(expr, { timezone, paused: true }).nextRuns(n, from);
}
