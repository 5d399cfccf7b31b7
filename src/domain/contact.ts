// Contacts: the lifecycle stages and SMS consent states, and the contact row. The API reads only
// live contacts; the automation engine reads a contact's sending state too.
// The schema modules (api/contacts, api/hooks) read the limit here, beside the contact's other facts.
export { EMAIL_MAX_LENGTH } from '../lib/email-length.js';

export const LIFECYCLE_STAGES = [
  'subscriber', 'lead', 'marketing_qualified', 'sales_qualified', 'opportunity', 'customer', 'evangelist', 'other',
] as const;
export type LifecycleStage = (typeof LIFECYCLE_STAGES)[number];

export const SMS_CONSENT = ['granted', 'none', 'revoked'] as const;
export type SmsConsent = (typeof SMS_CONSENT)[number];

/** A contacts row: the columns the code reads (not email_normalized, not the search vector). */
export interface ContactRow {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  lifecycle_stage: LifecycleStage | null;
  do_not_contact: boolean;
  email_opt_out: boolean;
  sms_consent: SmsConsent;
  /** The person replied STOP to an SMS. */
  sms_stopped: boolean;
  tags: string[];
  assignee: string | null;
  archived_at: Date | null;
  /** Erased at the person's request: the row keeps only its id. */
  erased_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A contact as the API reads it: live contacts only, so no archive, erasure or STOP state. */
export type LiveContactRow = Omit<ContactRow, 'sms_stopped' | 'archived_at' | 'erased_at'>;

/** A contact as an automation step reads it before it sends to or changes the contact. */
export type StepContactRow = Omit<ContactRow, 'assignee' | 'created_at' | 'updated_at'>;

/** The fields an automation's field.set step may write (in the order its errors list them). */
export const STEP_SETTABLE_FIELDS = ['lifecycle_stage', 'first_name', 'last_name', 'phone'] as const;
export type StepSettableField = (typeof STEP_SETTABLE_FIELDS)[number];
