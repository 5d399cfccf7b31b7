// Deleting an automation (owners and admins; the server checks it too): confirmed by typing its
// name, since it cannot be undone. Its runs under way end "stopped"; its runs stay readable.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { api } from '../../lib/api';
import { isAdmin, useSession } from '../../lib/session';
import type { Automation } from './types';

export function DeleteAutomation({ automation }: { automation: Automation }) {
  const admin = isAdmin(useSession());
  const [open, setOpen] = useState(false);
  const client = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => api.delete<{ id: string; deleted: true }>(`/hub/api/automations/${automation.id}`),
    onSuccess: async () => {
      setOpen(false);
      await client.invalidateQueries({ queryKey: ['hub', 'automations'] });
      navigate('/automations');
    },
    onError: () => setOpen(false),
  });
  if (!admin) return null;
  return (
    <>
      <button type="button" className="button-danger" disabled={remove.isPending} onClick={() => setOpen(true)}>
        Delete…
      </button>
      <ErrorNotice error={remove.error} />
      <ConfirmDialog
        open={open}
        title={`Delete ${automation.name}?`}
        confirmLabel="Delete automation"
        confirmText={automation.name}
        danger
        onConfirm={() => remove.mutate()}
        onCancel={() => setOpen(false)}
      >
        <p>It takes no more contacts and its runs under way stop. Its past runs and messages stay readable. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
