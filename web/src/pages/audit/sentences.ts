// The audit log in sentences: one entry per action the server records (AUDIT_ACTIONS in
// src/domain/audit.ts; the Record does not compile without every one, and test/web checks it),
// read as "Maya rolled the key Website sync; the old one works until 3 Dec, 14:00". The object is
// a link while it still exists (the server names it then, and only then); the raw detail stays
// behind "Details" on the page.
import type { AuditAction } from '@domain/audit';
import type { AuditEntry } from '../../data/audit';
import { dollars } from '../../lib/money';
import { whenWords } from '../../lib/when';

/** A piece of a sentence: text, or the words of a link to the object. */
export type Part = string | { text: string; to: string };

const ROLE_WORDS: Record<string, string> = { owner: 'an owner', admin: 'an admin', member: 'a member' };
const role = (r: unknown): string => ROLE_WORDS[String(r)] ?? String(r);

/** Where each kind of object lives in the hub; a kind with no page is named without a link. */
function pathOf(kind: string, id: string): string | null {
  switch (kind) {
    case 'api_key': return '/keys';
    case 'user': return '/users';
    case 'account': return '/settings';
    case 'workflow': return `/workflows/${id}`;
    case 'automation': return `/automations/${id}`;
    case 'contact': return `/contacts/${id}`;
    case 'project': return `/content/${id}`;
    case 'item': return `/items/${id}`;
    case 'run': return `/runs/${id}`;
    case 'message': return `/messages/${id}`;
    default: return null;
  }
}

/** The object: its name now, linked, or (gone) the name the entry kept, or a general word. */
function object(e: AuditEntry, kept: unknown, general: string): Part {
  const to = pathOf(e.object.kind, e.object.id);
  if (e.object.name !== null && to) return { text: e.object.name, to };
  if (e.object.name !== null) return e.object.name;
  return typeof kept === 'string' && kept ? kept : general;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : JSON.stringify(v));
const change = (v: unknown): { from: unknown; to: unknown } | null => (v && typeof v === 'object' && 'from' in v && 'to' in v ? (v) : null);
const plural = (n: unknown, one: string, many: string): string => `${Number(n)} ${Number(n) === 1 ? one : many}`;

type Sentence = (e: AuditEntry, d: Record<string, unknown>) => Part[];

export const AUDIT_WORDS: Record<AuditAction, { label: string; sentence: Sentence }> = {
  'account.created': { label: 'Account created', sentence: (e, d) => ['created the account ', object(e, d.name, 'this account')] },
  'account.settings_changed': {
    label: 'Account renamed',
    sentence: (e, d) => {
      const name = change(d.name);
      return name ? [`renamed the account from “${str(name.from)}” to `, object(e, name.to, str(name.to))] : ['changed the settings of ', object(e, null, 'the account')];
    },
  },
  'key.created': { label: 'Key created', sentence: (e, d) => ['created the key ', object(e, d.name, 'an API key'), d.expires_at ? `, working until ${whenWords(str(d.expires_at))}` : ''] },
  'key.rolled': {
    label: 'Key rolled',
    sentence: (e, d) => ['rolled the key ', object(e, d.name, 'an API key'), d.grace === 'none' || !d.old_key_expires_at ? '; the old one stopped at once' : `; the old one works until ${whenWords(str(d.old_key_expires_at))}`],
  },
  'key.revoked': { label: 'Key revoked', sentence: (e, d) => ['revoked the key ', object(e, d.name, 'an API key')] },
  'key.updated': {
    label: 'Key changed',
    sentence: (e, d) => {
      const name = change(d.name);
      const cap = change(d.monthly_spend_cap_micros);
      const what = [
        name && `renamed it from “${str(name.from)}”`,
        cap && (cap.to === null ? 'removed its spend cap' : `set its monthly spend cap to ${dollars(Number(cap.to))}`),
      ].filter(Boolean);
      return ['changed the key ', object(e, name?.to, 'an API key'), what.length ? `: ${what.join(', ')}` : ''];
    },
  },
  'user.invited': { label: 'User invited', sentence: (e, d) => ['invited ', object(e, d.email, 'a user'), ` as ${role(d.role)}`, d.emailed ? ' (the link was emailed)' : ''] },
  'user.added': { label: 'User added', sentence: (e, d) => ['added ', object(e, d.email, 'a user'), ` as ${role(d.role)}`] },
  'user.role_changed': { label: 'Role changed', sentence: (e, d) => ['made ', object(e, d.email, 'a user'), ` ${role(d.to)} (was ${role(d.from).replace(/^an? /, '')})`] },
  'user.removed': { label: 'User removed', sentence: (e, d) => ['removed ', object(e, d.email, 'a user'), d.role ? ` (${str(d.role)})` : ''] },
  'user.password_set': { label: 'Password set', sentence: () => ['set their password with a one-time link'] },
  'user.password_changed': {
    label: 'Password changed',
    sentence: (_e, d) => ['changed their password', Number(d.other_sessions_ended) > 0 ? ` and was signed out of ${plural(d.other_sessions_ended, 'other session', 'other sessions')}` : ''],
  },
  'user.password_link_sent': {
    label: 'Password link sent',
    sentence: (e, d) => ['sent a new set-password link to ', object(e, d.email, 'a user'), d.emailed ? ' (by email)' : ' (shown once on screen)'],
  },
  'user.password_link_requested': { label: 'Forgotten password', sentence: () => ['asked for a set-password link with "Forgot password", which was emailed to them'] },
  'user.name_changed': { label: 'Name changed', sentence: (_e, d) => [`changed their name from "${str(d.from)}" to "${str(d.to)}"`] },
  'user.email_change_requested': { label: 'Email change asked', sentence: (_e, d) => [`asked to change their email to ${str(d.to)}; a confirmation link was sent there`] },
  'user.email_changed': {
    label: 'Email changed',
    sentence: (e, d) => ['changed the email of ', object(e, d.to, 'a user'), ` from ${str(d.from)} to ${str(d.to)}`, d.through ? ` (${str(d.through)})` : ''],
  },
  'automation.created': {
    label: 'Automation created',
    sentence: (e, d) => (d.copied_from ? ['copied an automation as ', object(e, d.name, 'a new automation')] : ['created the automation ', object(e, d.name, 'an automation')]),
  },
  'automation.deleted': { label: 'Automation deleted', sentence: (e, d) => ['deleted ', object(e, d.name, 'an automation'), Number(d.stopped_runs) ? ` and stopped ${plural(d.stopped_runs, 'run', 'runs')} in progress` : ''] },
  'automation.published': { label: 'Automation published', sentence: (e, d) => ['published the automation ', object(e, null, 'an automation'), d.version ? ` (version ${str(d.version)})` : ''] },
  'automation.paused': { label: 'Automation paused', sentence: (e) => ['paused the automation ', object(e, null, 'an automation')] },
  'automation.resumed': { label: 'Automation resumed', sentence: (e) => ['resumed the automation ', object(e, null, 'an automation')] },
  'automation.test_started': { label: 'Automation tested', sentence: (e, d) => ['sent a test of the automation ', object(e, null, 'an automation'), d.draft ? ' (the draft)' : ''] },
  'automation.webhook_rotated': { label: 'Webhook address changed', sentence: (e) => ['made a new webhook address for the automation ', object(e, null, 'an automation'), '; the old one no longer works'] },
  'automation_run.stopped': { label: 'Automation run stopped', sentence: (e) => ['stopped a run of the automation ', object(e, null, 'an automation')] },
  'workflow.created': {
    label: 'Workflow created',
    sentence: (e, d) => (d.copied_from ? ['copied a workflow as ', object(e, d.name, 'a new workflow')] : ['created the workflow ', object(e, d.name, 'a workflow')]),
  },
  'workflow.updated': { label: 'Workflow saved', sentence: (e, d) => ['saved the workflow ', object(e, d.name, 'a workflow'), d.blocks !== undefined ? ` (${plural(d.blocks, 'block', 'blocks')})` : ''] },
  'workflow.status_changed': { label: 'Workflow status changed', sentence: (e, d) => ['set the workflow ', object(e, null, 'a workflow'), ` to ${str(d.to)} (was ${str(d.from)})`] },
  'workflow.schedule_changed': {
    label: 'Workflow schedule changed',
    sentence: (e, d) => (d.to ? ['set the schedule of the workflow ', object(e, null, 'a workflow'), ` to ‘${str(d.to)}’ (${str(d.timezone)})`] : ['removed the schedule of the workflow ', object(e, null, 'a workflow')]),
  },
  'workflow.deleted': { label: 'Workflow deleted', sentence: (e, d) => ['deleted the workflow ', object(e, d.name, 'a workflow')] },
  'run.started': { label: 'Run started', sentence: (e) => ['started ', ...run(e)] },
  'run.approved': { label: 'Run approved', sentence: (e) => ['approved ', ...run(e)] },
  'run.rejected': { label: 'Run rejected', sentence: (e) => ['rejected ', ...run(e)] },
  'run.cancelled': { label: 'Run cancelled', sentence: (e) => ['cancelled ', ...run(e)] },
  'message.resent': {
    label: 'Message re-sent',
    sentence: (e, d) => ['re-sent the message ', object(e, null, 'a message deleted since'), d.was === 'unknown' ? ' (its delivery was unknown, so it may arrive twice)' : ''],
  },
  'contact.created': { label: 'Contact added', sentence: (e) => ['added the contact ', object(e, null, 'a contact that has since been erased')] },
  'contact.updated': {
    label: 'Contact changed',
    sentence: (e, d) => ['changed the contact ', object(e, null, 'a contact that has since been erased'), Array.isArray(d.fields) && d.fields.length ? `: ${d.fields.map((f) => str(f).replace(/_/g, ' ')).join(', ')}` : ''],
  },
  'contact.erased': { label: 'Contact erased', sentence: (_e, d) => ['erased a contact at their request', Number(d.messages_deleted) ? ` (${plural(d.messages_deleted, 'message', 'messages')} deleted)` : ''] },
  'project.created': { label: 'Project created', sentence: (e, d) => ['created the project ', object(e, d.name, 'a project')] },
  'project.settings_changed': { label: 'Project settings changed', sentence: (e, d) => ['changed the settings of the project ', object(e, d.project, 'a project')] },
  'page.created': { label: 'Page created', sentence: (e, d) => ['created the page ', object(e, d.title, 'a page')] },
  'work.opened': { label: 'Work management opened', sentence: (e, d) => ['opened work management in the project ', object(e, d.project, 'a project'), ` with the key prefix ${str(d.prefix)}`] },
  'work.prefix_changed': { label: 'Key prefix changed', sentence: (e, d) => ['changed the key prefix of the project ', object(e, d.project, 'a project'), ` from ${str(d.from)} to ${str(d.to)}`] },
  'work_item.deleted': { label: 'Work item deleted', sentence: (e, d) => ['deleted the work item ', object(e, d.key, 'a work item'), d.title ? ` (${str(d.title)})` : ''] },
};

/** A run is named by its workflow: "a run of Weekly digest", linked to the run. */
function run(e: AuditEntry): Part[] {
  if (e.object.name === null) return ['a run'];
  return ['a run of ', { text: e.object.name, to: `/runs/${e.object.id}` }];
}

/** Who acted, as people call them: the user's name now (or as it was), or the operator. */
export function actorName(e: AuditEntry): string {
  if (e.actor.kind === 'operator') return 'The operator';
  if (e.actor.name) return e.actor.name;
  // Removed since: the label kept "Name <email>"; the name, or the email, stands.
  const label = /^(.*?)\s*<([^>]+)>$/.exec(e.actor.label);
  return (label ? label[1] || label[2] : e.actor.label) ?? e.actor.label;
}

/** The whole sentence: the actor, then what they did. An action this hub does not know reads as its code's words. */
export function auditSentence(e: AuditEntry): Part[] {
  const words = (AUDIT_WORDS as Record<string, { sentence: Sentence } | undefined>)[e.action];
  const rest = words ? words.sentence(e, e.detail) : [`did “${e.action.replace(/[._]/g, ' ')}” to `, object(e, null, `a ${e.object.kind.replace(/_/g, ' ')}`)];
  return [`${actorName(e)} `, ...rest.filter((p) => p !== '')];
}

/** The sentence as plain text (for tests and the row's accessible name). */
export const sentenceText = (parts: Part[]): string => parts.map((p) => (typeof p === 'string' ? p : p.text)).join('');
