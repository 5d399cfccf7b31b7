// A contact's timeline entries in words (issue 25, item 4): a run ("Welcome" with its status in
// Run history's words), a message ("Email “Welcome, Ada”" with its delivery status), a change
// ("Edited by Olivia: last name", "Opted out of email (recorded by Olivia)"). Who made a change is
// the audit log's actor, without the address when a name is known.
import { AUTOMATION_RUN_STATUS_LABELS, type AutomationRunStatus } from '../../domain/automation.js';
import { iso } from '../../lib/time.js';
import type { TimelineRow } from './read-store.js';
import type { TimelineEntry } from './schemas.js';

const MESSAGE_STATUS_WORDS: Record<string, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Not delivered',
  unknown: 'Delivery unknown',
};
const CHANNEL_WORDS: Record<string, string> = { email: 'Email', sms: 'Text message', team: 'Team notice' };

/** The flags whose change is a consent event, said as such rather than as an edit. */
const FLAG_WORDS: Record<string, string> = {
  email_opt_out: 'Opted out of email',
  do_not_contact: 'Put on do-not-contact',
  sms_consent: 'SMS consent changed',
};

/** "Olivia Owner <olivia@acme.example>" → "Olivia Owner"; an address alone stays. */
const actorName = (label: string | null) => (label ? label.replace(/\s*<[^>]*>\s*$/, '') || label : null);

function changeText(r: TimelineRow): string {
  const by = actorName(r.actor_label);
  const suffix = by ? ` by ${by}` : '';
  if (r.action === 'contact.created') return by ? `Created${suffix}` : 'Created';
  if (r.action === 'contact.erased') return `Erased${suffix}`;
  const fields = Array.isArray(r.detail?.fields) ? (r.detail.fields as unknown[]).map(String) : [];
  const flags = fields.filter((f) => FLAG_WORDS[f]).map((f) => FLAG_WORDS[f]);
  const others = fields.filter((f) => !FLAG_WORDS[f]).map((f) => f.replace(/_/g, ' '));
  const parts = [...flags, ...(others.length ? [`Edited: ${others.join(', ')}`] : [])];
  return parts.length ? `${parts.join('; ')}${by ? ` (${by})` : ''}` : `Edited${suffix}`;
}

export function renderTimelineEntry(r: TimelineRow): TimelineEntry {
  const base = { kind: r.kind, id: r.id, at: iso(r.at), test: r.test };
  if (r.kind === 'run') {
    const status = r.status as AutomationRunStatus;
    return { ...base, text: `Automation “${r.automation_name ?? ''}”`, status, status_label: AUTOMATION_RUN_STATUS_LABELS[status] ?? status };
  }
  if (r.kind === 'message') {
    const what = CHANNEL_WORDS[r.channel ?? ''] ?? 'Message';
    const text = r.subject ? `${what} “${r.subject}”` : `${what} from “${r.automation_name ?? ''}”`;
    return { ...base, text, status: r.status, status_label: MESSAGE_STATUS_WORDS[r.status ?? ''] ?? r.status };
  }
  return { ...base, text: changeText(r), status: null, status_label: null };
}
