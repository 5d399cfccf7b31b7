// A contact's page: its fields and consents (editable; do-not-contact and an email opt-out cannot
// be lifted), its automation runs in Run history's words, every message sent to it, and erasure
// with a typed confirmation. The data comes in one request (GET /hub/api/contacts/{id}).
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { StatusBadge, Time } from '../../components/controls';
import { QueryState } from '../../components/states';
import { api } from '../../lib/api';
import { MessagesTable } from '../messages/MessagesTable';
import { ContactEditor } from './ContactEditor';
import { EraseContact } from './EraseContact';
import { contactName, type ContactDetail, type ContactRun } from './types';
import './contacts.css';
import { PageHeader } from '../../components/PageHeader';

function RunsTable({ runs }: { runs: ContactRun[] }) {
  if (!runs.length) return <p className="state state-empty">No automation has run for this contact.</p>;
  return (
    <table aria-label="Automation runs of this contact, newest first">
      <thead>
        <tr>
          <th scope="col">Automation</th>
          <th scope="col">Status</th>
          <th scope="col">Started</th>
          <th scope="col">Finished</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.id}>
            <td>
              <Link to={`/automations/${r.automation.id}`}>{r.automation.name}</Link>
              {r.test && <span className="muted"> (test)</span>}
            </td>
            <td>
              <StatusBadge status={r.status} label={r.status_label} />
              {r.error && <p className="message-error">{r.error}</p>}
            </td>
            <td>
              <Time iso={r.started_at} />
            </td>
            <td>
              <Time iso={r.finished_at} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function ContactPage() {
  const { id = '' } = useParams();
  const q = useQuery({ queryKey: ['hub', 'contacts', id], queryFn: () => api.get<ContactDetail>(`/hub/api/contacts/${encodeURIComponent(id)}`) });
  return (
    <section aria-labelledby="contact-title">
      <p>
        <Link to="/contacts">← Contacts</Link>
      </p>
      <QueryState q={q}>
        {(d) => (
          <>
            <PageHeader id="contact-title" title={contactName(d.contact)} />
            <p className="muted">
              Created <Time iso={d.contact.created_at} /> · changed <Time iso={d.contact.updated_at} />
              {d.sms_stopped && <> · replied STOP to an SMS (only their START lifts it)</>}
            </p>
            <ContactEditor key={d.contact.id} contact={d.contact} />
            <h2>Automation runs</h2>
            <RunsTable runs={d.automation_runs} />
            <h2>Messages</h2>
            {d.messages.length ? (
              <MessagesTable messages={d.messages} caption="Messages sent to this contact, newest first" showContact={false} />
            ) : (
              <p className="state state-empty">No message has been sent to this contact.</p>
            )}
            {d.more_messages && (
              <p>
                <Link to={`/messages?contact_id=${d.contact.id}`}>All messages of this contact</Link>
              </p>
            )}
            <EraseContact contact={d.contact} />
          </>
        )}
      </QueryState>
    </section>
  );
}
