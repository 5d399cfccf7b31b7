// What each step of an automation run did, in words for the run page (issue 25, item 4): "Waited
// 1 day", "Sent the email “Welcome, Ada”", "Added the tag “vip”". Built from the step's ledger row
// (its status and output), the step's config in the version the run runs, and the messages it
// queued. The step's error is shown beside these words, not in them. Pure.
import { STEP_SCHEMAS } from '../../domain/step-schemas.js';
import type { AutomationStepStatus, StepType } from '../../domain/automation.js';
import type { OutboxStatus } from '../../domain/message.js';

export interface StepFacts {
  type: string;
  name: string;
  status: AutomationStepStatus;
  /** The step's config in the version the run runs ({} when the step is no longer found there). */
  config: Record<string, unknown>;
  output: Record<string, unknown> | null;
  /** The messages it queued, oldest first. */
  messages: { status: OutboxStatus; subject: string | null }[];
}

/** The step type in words: the builder's label ("Send email"), "Trigger" for the trigger. */
export function stepTypeLabel(type: string): string {
  if (type === 'trigger') return 'Trigger';
  return STEP_SCHEMAS[type as StepType]?.label ?? 'Step';
}

const UNITS: [RegExp, string][] = [
  [/(\d+)Y/, 'year'],
  [/(\d+)M/, 'month'],
  [/(\d+)W/, 'week'],
  [/(\d+)D/, 'day'],
];
const TIME_UNITS: [RegExp, string][] = [
  [/(\d+)H/, 'hour'],
  [/(\d+)M/, 'minute'],
  [/(\d+(?:\.\d+)?)S/, 'second'],
];

/** "P1D" → "1 day", "PT1H30M" → "1 hour 30 minutes"; anything unreadable as written. */
export function durationWords(iso: string): string {
  const m = /^P([^T]*)(?:T(.*))?$/.exec(iso);
  if (!m) return iso;
  const parts: string[] = [];
  const take = (text: string | undefined, units: [RegExp, string][]) => {
    for (const [re, unit] of units) {
      const n = text ? re.exec(text)?.[1] : undefined;
      if (n !== undefined && Number(n) !== 0) parts.push(`${n} ${unit}${Number(n) === 1 ? '' : 's'}`);
    }
  };
  take(m[1], UNITS);
  take(m[2], TIME_UNITS);
  return parts.length ? parts.join(' ') : iso;
}

/** "2026-03-02T09:00:00Z" → "2 Mar 2026, 09:00 UTC" (the page shows times in UTC words here). */
function dateWords(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const month = d.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });
  return `${d.getUTCDate()} ${month} ${d.getUTCFullYear()}, ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')} UTC`;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const quoted = (s: string) => `“${s}”`;

/** What a send step came to, from its message's status (the worst first, as the step shows it). */
function sendWords(what: string, f: StepFacts): string {
  if (f.status === 'skipped') return `Did not send ${what}`;
  if (f.status === 'running') return `Sending ${what}`;
  const statuses = f.messages.map((m) => m.status);
  if (f.status === 'unknown' || statuses.includes('unknown')) return `Handed over ${what}; whether it arrived is not known`;
  if (f.status === 'failed' || statuses.includes('failed')) return `Could not deliver ${what}`;
  if (statuses.some((s) => s === 'queued' || s === 'sending')) return `Queued ${what} for sending`;
  return `Sent ${what}`;
}

/** The step's deed in words; its error (a skip's reason, a failure) is shown beside it. */
export function stepDid(f: StepFacts): string {
  const c = f.config;
  const out = f.output ?? {};
  switch (f.type) {
    case 'trigger':
      return `Started: ${f.name}`;
    case 'email.send': {
      const subject = f.messages[0]?.subject ?? str(c.subject);
      return sendWords(subject ? `the email ${quoted(subject)}` : 'the email', f);
    }
    case 'sms.send':
      return sendWords('the text message', f);
    case 'notify.team': {
      const n = typeof out.recipients === 'number' ? out.recipients : f.messages.length;
      return sendWords(n === 1 ? 'a notice to 1 person of the team' : `a notice to ${n} people of the team`, f);
    }
    case 'wait': {
      const how = str(c.duration) ? durationWords(String(c.duration)) : str(c.until) ? `until ${dateWords(String(c.until))}` : 'a while';
      if (f.status === 'waiting' || f.status === 'running') return `Waiting ${how}`;
      if (f.status === 'ok') return `Waited ${how}`;
      return `Did not finish waiting ${how}`;
    }
    case 'branch': {
      const field = str(c.field)?.replace(/_/g, ' ') ?? 'a contact field';
      const way = out.branch === 'yes' || out.branch === 'no' ? `: the answer was ${out.branch}` : '';
      return `Checked the contact's ${field}${way}`;
    }
    case 'tag.add':
      return f.status === 'ok' ? `Added the tag ${quoted(str(c.tag) ?? '')}` : `Did not add the tag ${quoted(str(c.tag) ?? '')}`;
    case 'field.set': {
      const field = str(c.field)?.replace(/_/g, ' ') ?? 'a field';
      const value = str(c.value);
      if (f.status !== 'ok') return `Did not change the contact's ${field}`;
      return value ? `Set the contact's ${field} to ${quoted(value)}` : `Cleared the contact's ${field}`;
    }
    case 'task.create':
      return f.status === 'ok' ? `Created the task ${str(out.key) ?? ''}`.trim() : 'Did not create a task';
    case 'ai.write': {
      if (f.status !== 'ok') return 'Did not write with AI';
      return typeof out.tokens === 'number' ? `Wrote a text with AI (${out.tokens} tokens)` : 'Wrote a text with AI';
    }
    case 'end':
      return 'Ended the run here';
    default:
      return f.name;
  }
}
