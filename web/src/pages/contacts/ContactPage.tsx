// A contact's page: its fields and consents (editable; do-not-contact and an email opt-out cannot
// be lifted), its automation runs in Run history's words, every message sent to it, and erasure
// with a typed confirmation. The data comes in one request (GET /hub/api/contacts/{id}).
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { StatusBadge, Time } from '../../components/controls';
import { Table, type Column } from '../../components/list';
import { messageColumns } from '../../components/messages/MessagesTable';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/states';
import { contactName, contactQuery, type ContactRun } from '../../data/contacts';
import { ContactEditor } from './ContactEditor';
import { EraseContact } from './EraseContact';
import './contacts.css';

const RUN_COLUMNS: Column<ContactRun>[] = [
  {
    header: 'Automation',
    cell: (r) => (
      <>
        <Link to={`/automations/${r.automation.id}`}>{r.automation.name}</Link>
        {r.test && <span className="muted"> (test)</span>}
      </>
    ),
  },
  {
    header: 'Status',
    cell: (r) => (
      <>
        <StatusBadge status={r.status} label={r.status_label} />
        {r.error && <p className="contacts-run-error">{r.error}</p>}
      </>
    ),
  },
  { header: 'Started', cell: (r) => <Time iso={r.started_at} /> },
  { header: 'Finished', cell: (r) => <Time iso={r.finished_at} /> },
];

const MESSAGE_COLUMNS = messageColumns(false);

export default function ContactPage() {
  const { id = '' } = useParams();
  const q = useQuery(contactQuery(id));
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
            {d.automation_runs.length ? (
              <Table columns={RUN_COLUMNS} rows={d.automation_runs} caption="Automation runs of this contact, newest first" />
            ) : (
              <p className="state state-empty">No automation has run for this contact.</p>
            )}
            <h2>Messages</h2>
            {d.messages.length ? (
              <Table columns={MESSAGE_COLUMNS} rows={d.messages} caption="Messages sent to this contact, newest first" />
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
