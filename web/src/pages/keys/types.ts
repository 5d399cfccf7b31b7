// The keys screen's words and arithmetic: the graces a roll offers, how micros read as dollars in
// the cap field, and how a key's creator is named. The shapes are the server's (data/api-keys.ts).
import type { HubKey } from '../../data/api-keys';

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
