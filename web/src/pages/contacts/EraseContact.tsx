// Erasure at the person's request, as `contacts erase` does it: the user types the contact's email
// (or its id when it has none) to confirm; afterwards the contact is gone and the list opens.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { api } from '../../lib/api';
import type { Contact } from './types';

export function EraseContact({ contact }: { contact: Contact }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const client = useQueryClient();
  const confirmText = contact.email ?? contact.id;
  const erase = useMutation({
    mutationFn: () => api.post(`/hub/api/contacts/${contact.id}/erase`, { confirm: confirmText }),
    onSuccess: () => {
      setOpen(false);
      // Dropped, not just marked stale: a stale list would show the erased contact for a moment
      // before its refetch; a dropped one loads afresh.
      client.removeQueries({ queryKey: ['hub', 'contacts'] });
      void client.invalidateQueries({ queryKey: ['hub', 'messages'] });
      navigate('/contacts', { replace: true });
    },
    onError: () => setOpen(false),
  });
  return (
    <section className="card danger-zone" aria-labelledby="erase-title">
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
        onConfirm={() => erase.mutate()}
        onCancel={() => setOpen(false)}
      >
        <p>Everything about this person is removed for good.</p>
      </ConfirmDialog>
    </section>
  );
}
