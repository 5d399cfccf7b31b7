// An email or a text as a contact would get it: rendered by the server with the engine's own
// template functions (POST /hub/api/automations/preview) once the typing pauses, for a contact
// of the account or the sample contact. The email's HTML is shown only in a sandboxed iframe. A
// text's size as carriers bill it, live as it is typed: segments and encoding from the domain's
// smsSegments (the same count the server bills), and the price of one send.
import { useQuery } from '@tanstack/react-query';
import { smsSegments } from '@domain/sms-segments';
import { useState } from 'react';
import { SearchPicker } from '../../components/list';
import { ErrorNotice } from '../../components/states';
import { templatePreviewQuery } from '../../data/automations';
import { contactListQuery, contactName } from '../../data/contacts';
import { centsOrDollars } from '../../lib/money';
import { useDebounced } from '../../lib/useDebounced';

/** The newest contacts to preview for (the step's preview has no room for a search). */
const previewContacts = () => contactListQuery({ limit: '20' });

export function MessagePreview({ channel, subject, body, stepName }: { channel: 'email' | 'sms'; subject?: string; body: string; stepName: string }) {
  const [contactId, setContactId] = useState('');
  const key = useDebounced(JSON.stringify({ channel, subject, body, contact_id: contactId || undefined }), 500);
  const preview = useQuery({ ...templatePreviewQuery(key), enabled: body.trim() !== '' });
  const p = preview.data;
  return (
    <section className="builder-message-preview" aria-label={`Preview of ${stepName}`}>
      <div className="builder-preview-head">
        <h4>Preview</h4>
        <SearchPicker
          label={`Preview ${stepName} for`}
          value={contactId}
          onChange={setContactId}
          query={previewContacts}
          option={(c) => [c.id, contactName(c)]}
          none="Sample contact (Ada Lovelace)"
        />
      </div>
      <ErrorNotice error={preview.error} />
      {body.trim() === '' ? (
        <p className="state state-empty">Write the {channel === 'email' ? 'body' : 'text'} to see it here.</p>
      ) : !p ? (
        !preview.error && <p className="state">Preparing the preview…</p>
      ) : channel === 'email' ? (
        <>
          <p className="builder-preview-subject">
            <span className="muted">Subject:</span> {p.subject}
          </p>
          <iframe className="sandboxed builder-preview-frame" sandbox="" srcDoc={p.body} title={`Email preview of ${stepName}`} />
        </>
      ) : (
        <p className="builder-sms-bubble">{p.body}</p>
      )}
    </section>
  );
}

export function SmsInfo({ text, microsPerSegment, consentRequired }: { text: string; microsPerSegment: number; consentRequired: boolean }) {
  const { encoding, segments } = smsSegments(text);
  return (
    <div className="builder-sms-info">
      {/* An empty text is not "1 segment": there is nothing to send (nor to bill) until one is written. */}
      <p aria-live="polite">
        {text.length === 0 ? (
          'Empty: nothing to send yet.'
        ) : (
          <>
            {text.length} characters · {segments} {segments === 1 ? 'segment' : 'segments'} ({encoding === 'gsm7' ? 'GSM-7' : 'UCS-2: a character outside GSM-7 halves the room'}) ·{' '}
            <strong>{centsOrDollars(microsPerSegment * segments)} per send</strong>
          </>
        )}
      </p>
      <p className="hint">
        {consentRequired
          ? 'Sent only to contacts who agreed to texts (this project requires SMS consent), never after they reply STOP.'
          : 'Sent to contacts with a phone number, never after they reply STOP.'}
      </p>
    </div>
  );
}
