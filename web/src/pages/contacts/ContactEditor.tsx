// A contact's fields as a form: only what changed is sent (PATCH), so an unchanged opt-out is never
// re-sent; a refusal (opt_out_locked, contact_exists…) is shown with its request id.
import { useState } from 'react';
import { ErrorNotice } from '../../components/states';
import { useUpdateContact, type Contact } from '../../data/contacts';
import { ContactFields, draftOf, toInput } from './ContactFields';

export function ContactEditor({ contact }: { contact: Contact }) {
  const [draft, setDraft] = useState(() => draftOf(contact));
  const [saved, setSaved] = useState(false);
  const before = toInput(draftOf(contact));
  const after = toInput(draft);
  const changes = Object.fromEntries(Object.entries(after).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k])));
  const save = useUpdateContact(contact.id);
  const dirty = Object.keys(changes).length > 0;
  return (
    <form
      className="card"
      aria-label="Contact fields"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        save.mutate(changes, {
          onSuccess: (c) => {
            setDraft(draftOf(c));
            setSaved(true);
          },
        });
      }}
    >
      <ContactFields
        draft={draft}
        onChange={(d) => {
          setSaved(false);
          setDraft(d);
        }}
        locked={{ do_not_contact: contact.do_not_contact, email_opt_out: contact.email_opt_out }}
        error={save.error}
      />
      <ErrorNotice error={save.error} />
      {saved && !dirty && (
        <p className="notice notice-ok" role="status">
          Saved.
        </p>
      )}
      <div className="actions">
        <button type="submit" disabled={!dirty || save.isPending}>
          {save.isPending ? 'Saving…' : 'Save changes'}
        </button>
        <button type="button" className="button-secondary" disabled={!dirty} onClick={() => setDraft(draftOf(contact))}>
          Discard changes
        </button>
      </div>
    </form>
  );
}
