// A contact's fields as a form: only what changed is sent (PATCH), so an unchanged opt-out is never
// re-sent; a refusal (opt_out_locked, contact_exists…) is shown with its request id.
import { useState } from 'react';
import { SaveBar } from '../../components/controls';
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
      <SaveBar dirty={dirty} busy={save.isPending} saved={saved} onDiscard={() => setDraft(draftOf(contact))} />
    </form>
  );
}
