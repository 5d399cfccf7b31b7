// A template preview for the automation builder: an email's subject and body, or a text, rendered
// for one of the account's contacts (or a sample contact) by the engine's own template functions,
// so what the builder shows is what the step would send. A text also gets its segments, encoding
// and the price of one send, as the SMS step bills it.
import type { Config } from '../../config.js';
import type { Db } from '../../db/db.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { StepContactRow } from '../../domain/contact.js';
import { smsSegments } from '../../domain/sms-segments.js';
import { templateView } from '../../engine/automations/conditions.js';
import { renderHtml, renderPlain, TemplateError } from '../../domain/template.js';
import { readContact } from '../../engine/automations/store.js';

/** Who a preview is for when no contact is chosen. */
export const SAMPLE_CONTACT: StepContactRow = {
  id: '00000000-0000-4000-8000-000000000000',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  phone: null,
  lifecycle_stage: null,
  do_not_contact: false,
  email_opt_out: false,
  sms_consent: 'none',
  sms_stopped: false,
  tags: [],
  archived_at: null,
  erased_at: null,
};

export interface PreviewInput {
  channel: 'email' | 'sms';
  subject?: string;
  body: string;
  contactId?: string;
}

export interface Preview {
  subject: string | null;
  body: string;
  segments?: number;
  encoding?: 'gsm7' | 'ucs2';
  micros?: number;
  contact: { id: string; name: string } | null;
}

/** A template Mustache cannot read (an unclosed tag) fails the step at send time: say so now. */
function render(fn: typeof renderHtml, template: string, view: Record<string, unknown>, param: string): string {
  try {
    return fn(template, view);
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    throw new ApiError('invalid_field', `The ${param} ${err.message.replace(/^the template /, '')}.`, { param });
  }
}

export async function previewTemplate(db: Db, config: Pick<Config, 'delivery'>, accountId: string, p: PreviewInput): Promise<Preview> {
  let contact = SAMPLE_CONTACT;
  if (p.contactId !== undefined) {
    const found = await readContact(db, accountId, p.contactId, false);
    // An archived or erased contact is no one to preview for, as the API's contact reads say.
    if (!found || found.archived_at || found.erased_at) throw notFound('contact');
    contact = found;
  }
  const view = templateView(contact, {});
  const who = p.contactId === undefined ? null : { id: contact.id, name: String(view.name) };
  if (p.channel === 'email') {
    return {
      subject: p.subject === undefined ? null : render(renderPlain, p.subject, view, 'subject'),
      body: render(renderHtml, p.body, view, 'body'),
      contact: who,
    };
  }
  const body = render(renderPlain, p.body, view, 'body');
  const { segments, encoding } = smsSegments(body);
  return { subject: null, body, segments, encoding, micros: segments * config.delivery.smsMicrosPerSegment, contact: who };
}
