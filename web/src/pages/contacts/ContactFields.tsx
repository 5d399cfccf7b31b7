// The editable fields of a contact, shared by "New contact" and a contact's page. The form keeps
// text as typed; toInput turns it into the API's fields (blank text → null, tags split on commas).
// do_not_contact and email_opt_out, once set, cannot be unset (the server refuses with
// opt_out_locked), so their boxes are disabled then and say why.
import { Field, Select } from '../../components/controls';
import { fieldError } from '../../lib/error-words';
import type { Contact } from '../../data/contacts';
import { LIFECYCLE_STAGES, SMS_CONSENT, SMS_CONSENT_WORDS, stageWord } from './words';

export interface ContactDraft {
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  lifecycle_stage: string;
  sms_consent: string;
  tags: string;
  do_not_contact: boolean;
  email_opt_out: boolean;
}

export const EMPTY_DRAFT: ContactDraft = {
  email: '', first_name: '', last_name: '', phone: '', lifecycle_stage: '', sms_consent: 'none', tags: '', do_not_contact: false, email_opt_out: false,
};

export function draftOf(c: Contact): ContactDraft {
  return {
    email: c.email ?? '',
    first_name: c.first_name ?? '',
    last_name: c.last_name ?? '',
    phone: c.phone ?? '',
    lifecycle_stage: c.lifecycle_stage ?? '',
    sms_consent: c.sms_consent,
    tags: c.tags.join(', '),
    do_not_contact: c.do_not_contact,
    email_opt_out: c.email_opt_out,
  };
}

/** The draft as the API's body fields. */
export function toInput(d: ContactDraft): Record<string, unknown> {
  const text = (s: string) => (s.trim() ? s.trim() : null);
  return {
    email: d.email.trim(),
    first_name: text(d.first_name),
    last_name: text(d.last_name),
    phone: text(d.phone),
    lifecycle_stage: d.lifecycle_stage || null,
    sms_consent: d.sms_consent,
    tags: [...new Set(d.tags.split(',').map((t) => t.trim()).filter(Boolean))],
    do_not_contact: d.do_not_contact,
    email_opt_out: d.email_opt_out,
  };
}

export function ContactFields({ draft, onChange, locked, error }: { draft: ContactDraft; onChange: (d: ContactDraft) => void; locked?: { do_not_contact: boolean; email_opt_out: boolean }; error?: unknown }) {
  // A refusal naming one of these fields (a taken email, a bad phone) is also shown on it.
  const bad = (f: keyof ContactDraft) => fieldError(error, f);
  const set = <K extends keyof ContactDraft>(k: K) => (v: ContactDraft[K]) => onChange({ ...draft, [k]: v });
  return (
    <>
      <div className="contacts-grid">
        <Field label="Email" type="email" required value={draft.email} onChange={(e) => set('email')(e.target.value)} autoComplete="off" error={bad('email')} />
        <Field label="Phone" type="tel" value={draft.phone} onChange={(e) => set('phone')(e.target.value)} autoComplete="off" error={bad('phone')} />
        <Field label="First name" value={draft.first_name} onChange={(e) => set('first_name')(e.target.value)} autoComplete="off" error={bad('first_name')} />
        <Field label="Last name" value={draft.last_name} onChange={(e) => set('last_name')(e.target.value)} autoComplete="off" error={bad('last_name')} />
        <Select label="Lifecycle stage" value={draft.lifecycle_stage} onChange={set('lifecycle_stage')} options={[['', 'None'], ...LIFECYCLE_STAGES.map((s): [string, string] => [s, stageWord(s)])]} />
        <Field label="Tags" value={draft.tags} onChange={(e) => set('tags')(e.target.value)} hint="Separated by commas." autoComplete="off" error={bad('tags')} />
      </div>
      <fieldset>
        <legend>Consent</legend>
        <Select label="SMS consent" value={draft.sms_consent} onChange={set('sms_consent')} options={SMS_CONSENT.map((s): [string, string] => [s, SMS_CONSENT_WORDS[s]])} />
        <label className="checkbox">
          <input type="checkbox" checked={draft.email_opt_out} disabled={locked?.email_opt_out} onChange={(e) => set('email_opt_out')(e.target.checked)} />
          Opted out of email
        </label>
        {locked?.email_opt_out && <p className="contacts-locked">The person opted out; only they can opt back in.</p>}
        <label className="checkbox">
          <input type="checkbox" checked={draft.do_not_contact} disabled={locked?.do_not_contact} onChange={(e) => set('do_not_contact')(e.target.checked)} />
          Do not contact
        </label>
        {locked?.do_not_contact && <p className="contacts-locked">Once set, do-not-contact cannot be lifted.</p>}
      </fieldset>
    </>
  );
}
