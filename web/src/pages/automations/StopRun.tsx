// Stopping one contact's run (running or waiting): it ends "Stopped" with the error "Stopped in
// the hub" and sends nothing more. Confirmed first, since it cannot be resumed.
import { useState } from 'react';
import { ConfirmDialog } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import type { AutomationRun } from '../../data/automations';
import { useStopRun } from '../../data/automation-runs';

export function StopRun({ run }: { run: AutomationRun }) {
  const [open, setOpen] = useState(false);
  const who = run.contact?.name ?? 'this run';
  const stop = useStopRun(run.id);
  return (
    <>
      <button type="button" className="button-secondary" aria-label={`Stop the run of ${who}`} onClick={() => setOpen(true)} disabled={stop.isPending}>
        Stop
      </button>
      <ErrorNotice error={stop.error} />
      <ConfirmDialog open={open} title={`Stop the run of ${who}?`} confirmLabel="Stop run" danger onConfirm={() => stop.mutate(undefined, { onSettled: () => setOpen(false) })} onCancel={() => setOpen(false)}>
        <p>It sends nothing more and cannot be resumed.</p>
      </ConfirmDialog>
    </>
  );
}
