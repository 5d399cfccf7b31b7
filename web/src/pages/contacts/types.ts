// The shapes the contacts screens read from /hub/api/contacts (src/hub/contacts/routes.ts), and
// the words the screens use for lifecycle stages and SMS consent.
import type { Message } from '../messages/types';

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

import { LIFECYCLE_STAGES, SMS_CONSENT } from '@domain/contact';
export { LIFECYCLE_STAGES, SMS_CONSENT };

export const stageWord = (s: string | null) => (s ? s.replace(/_/g, ' ') : '—');
export const SMS_CONSENT_WORDS: Record<(typeof SMS_CONSENT)[number], string> = {
  granted: 'Granted',
  none: 'Not asked or not recorded',
  revoked: 'Revoked',
};

export interface Contact {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  lifecycle_stage: (typeof LIFECYCLE_STAGES)[number] | null;
  do_not_contact: boolean;
  email_opt_out: boolean;
  sms_consent: (typeof SMS_CONSENT)[number];
  tags: string[];
  assignee: string | null;
  created_at: string;
  updated_at: string;
}

export interface ContactRun {
  id: string;
  automation: { id: string; name: string };
  status: string;
  status_label: string;
  test: boolean;
  version: number;
  started_at: string;
  finished_at: string | null;
  next_at: string | null;
  error: string | null;
}

export interface ContactDetail {
  contact: Contact;
  sms_stopped: boolean;
  automation_runs: ContactRun[];
  messages: Message[];
  more_messages: boolean;
}

/** The name a person is shown by: first and last name, else the email, else the id. */
export function contactName(c: Contact): string {
  const name = [c.first_name, c.last_name].filter((x) => x && x.trim()).join(' ');
  return name || c.email || c.id;
}
