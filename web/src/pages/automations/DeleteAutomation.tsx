// Deleting an automation (owners and admins; the server checks it too): confirmed by typing its
// name, since it cannot be undone. Its runs under way end "stopped"; its runs stay readable.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { useDeleteAutomation, type Automation } from '../../data/automations';
import { isAdmin, useSession } from '../../lib/session';

export function DeleteAutomation({ automation }: { automation: Automation }) {
  const admin = isAdmin(useSession());
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const remove = useDeleteAutomation(automation.id);
  const confirm = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        setOpen(false);
        void navigate('/automations');
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
        onConfirm={confirm}
        onCancel={() => setOpen(false)}
      >
        <p>It takes no more contacts and its runs under way stop. Its past runs and messages stay readable. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
