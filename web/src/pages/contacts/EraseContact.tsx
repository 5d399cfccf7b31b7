// Erasure at the person's request, as `contacts erase` does it: the user types the contact's email
// (or its id when it has none) to confirm; afterwards the contact is gone and the list opens.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { useEraseContact, type Contact } from '../../data/contacts';

export function EraseContact({ contact }: { contact: Contact }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const confirmText = contact.email ?? contact.id;
  const erase = useEraseContact(contact.id);
  return (
    <section className="card contacts-danger-zone" aria-labelledby="erase-title">
      <h2 id="erase-title">Erase this contact</h2>
      <p>
        For a person who asked to be forgotten: their personal data is cleared, their address is kept only in a form that refuses it
        later, their running automation runs stop and their messages are deleted. This cannot be undone.
      </p>
      <ErrorNotice error={erase.error} />
      <button type="button" className="button-danger" onClick={() => setOpen(true)} disabled={erase.isPending}>
        Erase contact…
      </button>
      <ConfirmDialog
        open={open}
        title="Erase this contact?"
        confirmLabel={erase.isPending ? 'Erasing…' : 'Erase'}
        confirmText={confirmText}
        danger
        onConfirm={() =>
          erase.mutate(confirmText, {
            onSuccess: () => {
              setOpen(false);
              void navigate('/contacts', { replace: true });
            },
            onError: () => setOpen(false),
          })
        }
        onCancel={() => setOpen(false)}
      >
        <p>Everything about this person is removed for good.</p>
      </ConfirmDialog>
    </section>
  );
}
