// The keys screen's shapes: what /hub/api/keys answers (src/hub/keys/routes.ts, HubKey and
// friends), and how micros read as dollars.
import type { KeyState } from '@domain/key';
export type { KeyState };

export interface HubKey {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  state: KeyState;
  created_by: { id: string; name: string; email: string };
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  monthly_spend_cap_micros: number | null;
  spent_this_month_micros: number;
  revoked_at: string | null;
  replaced_by: string | null;
}

export interface KeyList {
  data: HubKey[];
  max_active: number;
}

export interface ScopeInfo {
  scope: string;
  description: string;
}

export interface Created {
  key: HubKey;
  value: string;
}

export interface Rolled {
  old: HubKey;
  key: HubKey;
  value: string;
}

/** The graces a roll offers (ROLL_GRACE in src/domain/hub.ts), in words. */
export const GRACES = [
  ['none', 'None: the old key stops now'],
  ['1h', '1 hour'],
  ['24h', '24 hours'],
  ['7d', '7 days'],
] as const;

const MICROS_PER_USD = 1_000_000;

/**
 * A dollar amount typed by the user ("" = no cap) as micros; null for "no cap", NaN when it is
 * not a positive amount (the form says so before sending).
 */
export function capMicros(dollars: string): number | null {
  const t = dollars.trim();
  if (!t) return null;
  if (!/^\d+(\.\d{1,6})?$/.test(t)) return NaN;
  const m = Math.round(Number(t) * MICROS_PER_USD);
  return m >= 1 ? m : NaN;
}

/** Micros as the dollar text the cap field takes back ("" for no cap). */
export function capText(micros: number | null): string {
  return micros === null ? '' : String(micros / MICROS_PER_USD);
}

/** The person who created a key, as the list names them. */
export function who(k: HubKey): string {
  return k.created_by.name ? `${k.created_by.name} <${k.created_by.email}>` : k.created_by.email;
}
