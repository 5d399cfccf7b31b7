// The words the contacts screens use for lifecycle stages, SMS consent and a person's name (the
// contact itself is the server's shape: data/contacts.ts).
import { LIFECYCLE_STAGES, SMS_CONSENT } from '@domain/contact';
import type { Contact } from '../../data/contacts';
export { LIFECYCLE_STAGES, SMS_CONSENT };

export const stageWord = (s: string | null) => (s ? s.replace(/_/g, ' ') : '—');
export const SMS_CONSENT_WORDS: Record<(typeof SMS_CONSENT)[number], string> = {
  granted: 'Granted',
  none: 'Not asked or not recorded',
  revoked: 'Revoked',
};

/** The name a person is shown by: first and last name, else the email, else the id. */
export function contactName(c: Contact): string {
  const name = [c.first_name, c.last_name].filter((x) => x && x.trim()).join(' ');
  return name || c.email || c.id;
}
