// "New contact": the same fields as a contact's page; the contact is created as /v1 creates one
// (published contact.created automations start for it), then its page opens.
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorNotice } from '../../components/states';
import { useCreateContact } from '../../data/contacts';
import { ContactFields, EMPTY_DRAFT, toInput } from './ContactFields';
import './contacts.css';
import { PageHeader } from '../../components/PageHeader';

export default function NewContactPage() {
  const [draft, setDraft] = useState(EMPTY_DRAFT);
  const navigate = useNavigate();
  const create = useCreateContact();
  return (
    <section aria-labelledby="new-contact-title">
      <p>
        <Link to="/contacts">← Contacts</Link>
      </p>
      <PageHeader id="new-contact-title" title="New contact" />
      <form
        className="card"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(toInput(draft), { onSuccess: (c) => void navigate(`/contacts/${c.id}`) });
        }}
      >
        <ContactFields draft={draft} onChange={setDraft} error={create.error} />
        <ErrorNotice error={create.error} />
        <div className="actions">
          <button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create contact'}
          </button>
        </div>
      </form>
    </section>
  );
}
