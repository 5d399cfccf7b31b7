// Deleting a workflow (owners and admins; the server checks the role too): after a confirmation,
// DELETE /hub/api/workflows/:id, then back to the list. Its runs stay readable on the Runs screen.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { api } from '../../lib/api';
import type { WorkflowInList } from './model';

/** `inRow`: one of many (the list's rows), so the button's name carries the workflow's. */
export function DeleteWorkflow({ wf, inRow = false }: { wf: Pick<WorkflowInList, 'id' | 'name'>; inRow?: boolean }) {
  const [open, setOpen] = useState(false);
  const client = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => api.delete<{ id: string; deleted: true }>(`/hub/api/workflows/${wf.id}`),
    onSuccess: () => {
      client.removeQueries({ queryKey: ['hub', 'workflow', wf.id] });
      void client.invalidateQueries({ queryKey: ['hub', 'workflows'] });
      navigate('/workflows');
    },
  });
  return (
    <>
      <button type="button" className={inRow ? 'button-danger wf-row-action' : 'button-danger'} onClick={() => setOpen(true)} disabled={remove.isPending}>
        Delete
        {inRow && <span className="visually-hidden"> {wf.name}</span>}
      </button>
      <ConfirmDialog
        open={open}
        title={`Delete ${wf.name}?`}
        confirmLabel="Delete the workflow"
        danger
        onCancel={() => setOpen(false)}
        onConfirm={() => {
          setOpen(false);
          remove.mutate();
        }}
      >
        <p>It stops running on its schedule and can no longer be started. Its past runs stay readable; a run in progress finishes.</p>
      </ConfirmDialog>
      <ErrorNotice error={remove.error} />
    </>
  );
}
