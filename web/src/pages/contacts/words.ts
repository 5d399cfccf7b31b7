// The words the contacts screens use for lifecycle stages and SMS consent (the contact itself is
// the server's shape, and its name is contactName: both in data/contacts.ts).
import { LIFECYCLE_STAGES, SMS_CONSENT } from '@domain/contact';
export { LIFECYCLE_STAGES, SMS_CONSENT };

export const stageWord = (s: string | null) => (s ? s.replace(/_/g, ' ') : '—');
export const SMS_CONSENT_WORDS: Record<(typeof SMS_CONSENT)[number], string> = {
  granted: 'Granted',
  none: 'Not asked or not recorded',
  revoked: 'Revoked',
};

