// "New contact": the same fields as a contact's page; the contact is created as /v1 creates one
// (published contact.created automations start for it), then its page opens.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorNotice } from '../../components/states';
import { api } from '../../lib/api';
import { ContactFields, EMPTY_DRAFT, toInput } from './ContactFields';
import type { Contact } from './types';
import './contacts.css';
import { PageHeader } from '../../components/PageHeader';

export default function NewContactPage() {
  const [draft, setDraft] = useState(EMPTY_DRAFT);
  const navigate = useNavigate();
  const client = useQueryClient();
  const create = useMutation({
    mutationFn: () => api.post<Contact>('/hub/api/contacts', toInput(draft)),
    onSuccess: (c) => {
      void client.invalidateQueries({ queryKey: ['hub', 'contacts'] });
      navigate(`/contacts/${c.id}`);
    },
  });
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
          create.mutate();
        }}
      >
        <ContactFields draft={draft} onChange={setDraft} />
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
