// A contact's page: its fields and consents (editable; do-not-contact and an email opt-out cannot
// be lifted), its timeline (runs, messages and changes, newest first: ContactTimeline.tsx), and
// erasure with a typed confirmation. The contact comes from GET /hub/api/contacts/{id}.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Time } from '../../components/controls';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/states';
import { contactName, contactQuery } from '../../data/contacts';
import { ContactEditor } from './ContactEditor';
import { ContactTimeline } from './ContactTimeline';
import { EraseContact } from './EraseContact';
import './contacts.css';

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
            <h2>Timeline</h2>
            <ContactTimeline contactId={d.contact.id} />
            <p>
              <Link to={`/messages?contact_id=${d.contact.id}`}>All messages of this contact</Link>
            </p>
            <EraseContact contact={d.contact} />
          </>
        )}
      </QueryState>
    </section>
  );
}
