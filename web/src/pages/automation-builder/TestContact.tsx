// Send test needs a contact; a new account has none. This makes one right here: a name and an
// email, tagged "test" so it is told apart from real people in Contacts (the hub has no other
// notion of a test contact). Like any new contact, it may start published automations that start
// when a contact is created; the form says so.
import { useId, useState, type FormEvent } from 'react';
import { Field, FormButtons } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { useCreateContact, type Contact } from '../../data/contacts';

export function TestContact({ first, onCreated, onCancel }: { first: boolean; onCreated: (c: Contact) => void; onCancel?: () => void }) {
  const [name, setName] = useState('Test contact');
  const [email, setEmail] = useState('');
  const create = useCreateContact();
  const titleId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ email: email.trim(), first_name: name.trim() || null, tags: ['test'] }, { onSuccess: onCreated });
  };
  return (
    <form className="builder-test-contact" onSubmit={submit} aria-labelledby={titleId}>
      <h3 id={titleId}>{first ? 'No contact yet: create a test contact' : 'Create a test contact'}</h3>
      <p className="hint">Tagged “test”. The test still sends only to you; published automations that start when a contact is created may start for it.</p>
      <Field label="Test contact's name" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
      <Field label="Test contact's email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required maxLength={254} />
      <ErrorNotice error={create.error} />
      <FormButtons label="Create test contact" busyLabel="Creating…" busy={create.isPending} disabled={email.trim() === ''} onCancel={onCancel} />
    </form>
  );
}
