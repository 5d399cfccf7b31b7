// Whether a message may go to a contact now: the rules the send steps apply when they queue a
// message (src/engine/automations/steps.ts) and the sender applies again before every attempt
// (sender.ts), declared once so the two never disagree.
import type { SmsConsent } from '../domain/contact.js';

/** The contact's flags that decide it (a ContactRow, or the sender's Recipient). */
export interface SuppressionFacts {
  email: string | null;
  phone: string | null;
  do_not_contact: boolean;
  email_opt_out: boolean;
  sms_stopped: boolean;
  sms_consent: SmsConsent;
}

/** Why an email must not go to this contact now, or null when it may. */
export function emailSuppression(c: Pick<SuppressionFacts, 'do_not_contact' | 'email_opt_out' | 'email'>): string | null {
  if (c.do_not_contact) return 'Skipped: contact is on do-not-contact';
  if (c.email_opt_out) return 'Skipped: contact opted out of email';
  if (!c.email) return 'Skipped: contact has no email address';
  return null;
}

/** Why a text must not go to this contact now, or null when it may. */
export function smsSuppression(c: Pick<SuppressionFacts, 'do_not_contact' | 'sms_stopped' | 'phone' | 'sms_consent'>, consentRequired: boolean): string | null {
  if (c.do_not_contact) return 'Skipped: contact is on do-not-contact';
  if (c.sms_stopped) return 'Skipped: contact replied STOP';
  if (!c.phone) return 'Skipped: contact has no phone number';
  if (consentRequired && c.sms_consent !== 'granted') {
    return c.sms_consent === 'revoked' ? 'Skipped: contact revoked consent to texts' : 'Skipped: contact has not agreed to texts';
  }
  return null;
}
