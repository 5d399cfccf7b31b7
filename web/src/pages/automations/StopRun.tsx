// Stopping one contact's run (running or waiting): it ends "Stopped" with the error "Stopped in
// the hub" and sends nothing more. Confirmed first, since it cannot be resumed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { api } from '../../lib/api';
import type { AutomationRun } from './types';

export function StopRun({ run }: { run: AutomationRun }) {
  const [open, setOpen] = useState(false);
  const client = useQueryClient();
  const who = run.contact?.name ?? 'this run';
  const stop = useMutation({
    mutationFn: () => api.post<AutomationRun>(`/hub/api/automation-runs/${run.id}/stop`),
    onSettled: () => {
      setOpen(false);
      void client.invalidateQueries({ queryKey: ['hub', 'automations'] });
    },
  });
  return (
    <>
      <button type="button" className="button-secondary" aria-label={`Stop the run of ${who}`} onClick={() => setOpen(true)} disabled={stop.isPending}>
        Stop
      </button>
      <ErrorNotice error={stop.error} />
      <ConfirmDialog open={open} title={`Stop the run of ${who}?`} confirmLabel="Stop run" danger onConfirm={() => stop.mutate()} onCancel={() => setOpen(false)}>
        <p>It sends nothing more and cannot be resumed.</p>
      </ConfirmDialog>
    </>
  );
}
