// What a person can do with a run: approve or reject one awaiting approval (the output to be
// approved is shown above these buttons by the run page), cancel one that has not ended (after a
// confirmation). Each answer is the run as it now stands, put straight into the page's query.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { api } from '../../lib/api';
import type { RunDetail } from './model';

type Move = 'approve' | 'reject' | 'cancel';

export function useRunMove(run: RunDetail) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (move: Move) => api.post<RunDetail>(`/hub/api/runs/${run.id}/${move}`),
    onSuccess: (next) => {
      client.setQueryData(['hub', 'run', run.id], next);
      void client.invalidateQueries({ queryKey: ['hub', 'runs'] });
    },
  });
}

export function ApprovalButtons({ run, move }: { run: RunDetail; move: ReturnType<typeof useRunMove> }) {
  return (
    <div className="actions">
      <button type="button" onClick={() => move.mutate('approve')} disabled={move.isPending}>
        Approve
      </button>
      <button type="button" className="button-danger" onClick={() => move.mutate('reject')} disabled={move.isPending} aria-label={`Reject run ${run.id.slice(-8)}`}>
        Reject
      </button>
    </div>
  );
}

export function CancelRun({ run, move }: { run: RunDetail; move: ReturnType<typeof useRunMove> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button-secondary" onClick={() => setOpen(true)} disabled={move.isPending}>
        Cancel run
      </button>
      <ConfirmDialog
        open={open}
        title="Cancel this run?"
        confirmLabel="Cancel the run"
        danger
        onCancel={() => setOpen(false)}
        onConfirm={() => {
          setOpen(false);
          move.mutate('cancel');
        }}
      >
        <p>
          The run of {run.workflow_name} stops where it is; a block in progress ends failed. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}

export function MoveError({ move }: { move: ReturnType<typeof useRunMove> }) {
  return <ErrorNotice error={move.error} />;
}
