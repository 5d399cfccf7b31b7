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
