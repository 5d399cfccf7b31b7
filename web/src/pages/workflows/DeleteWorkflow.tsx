// Deleting a workflow (owners and admins; the server checks the role too): after a confirmation,
// DELETE /hub/api/workflows/:id, then back to the list. Its runs stay readable on the Runs screen.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { useDeleteWorkflow, type WorkflowInList } from '../../data/workflows';

/** `inRow`: one of many (the list's rows), so the button's name carries the workflow's. */
export function DeleteWorkflow({ wf, inRow = false }: { wf: Pick<WorkflowInList, 'id' | 'name'>; inRow?: boolean }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const remove = useDeleteWorkflow(wf.id);
  return (
    <>
      <button type="button" className={inRow ? 'button-danger workflows-row-action' : 'button-danger'} onClick={() => setOpen(true)} disabled={remove.isPending}>
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
          remove.mutate(undefined, { onSuccess: () => void navigate('/workflows') });
        }}
      >
        <p>It stops running on its schedule and can no longer be started. Its past runs stay readable; a run in progress finishes.</p>
      </ConfirmDialog>
      <ErrorNotice error={remove.error} />
    </>
  );
}
