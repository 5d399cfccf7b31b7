// What a person can do with a run: approve or reject one awaiting approval (the output to be
// approved is shown above these buttons by the run page), cancel one that has not ended (after a
// confirmation). The moves and what they refresh are data/runs.ts's useRunMove.
import { useState } from 'react';
import { ConfirmDialog } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import type { RunDetail, useRunMove } from '../../data/runs';

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
