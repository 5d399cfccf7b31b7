// The spec's scopes, the closed set a key may carry.
export const SCOPES = [
  'workflows:read',
  'workflows:run',
  'automations:read',
  'automations:enroll',
  'content:read',
  'content:write',
  'contacts:read',
  'contacts:write',
  'workmgmt:read',
  'usage:read',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(v: unknown): v is Scope {
  return typeof v === 'string' && (SCOPES as readonly string[]).includes(v);
}

/** What each scope lets a key do, in the spec's words ("Authentication", Scopes): the hub shows these beside the checkboxes. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  'workflows:read': 'List and read workflows and their runs.',
  'workflows:run': 'Start workflow runs (spends AI credit).',
  'automations:read': 'List and read automations and the runs of each contact through them.',
  'automations:enroll': 'Enroll contacts in a published automation (the automation then sends emails and texts).',
  'content:read': 'Read projects and content items.',
  'content:write': 'Create pages.',
  'contacts:read': 'Read contacts.',
  'contacts:write': 'Create and update contacts.',
  'workmgmt:read': 'Read work-management items, sprints and epics in every project.',
  'usage:read': 'Read billed usage.',
};
