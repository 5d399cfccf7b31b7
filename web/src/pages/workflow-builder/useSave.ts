// What the builder asks the server: save the definition (POST for a new workflow, PUT with the
// updated_at it started from otherwise, so a concurrent edit is a 409 instead of a silent
// overwrite), change the status, save the schedule, and Run now. Each answer is a WorkflowEditor
// the draft takes as its new base.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { runKeys } from '../../data/runs';
import { workflowKeys } from '../../data/workflows';
import { api } from '../../lib/api';
import { definitionOf, type Definition, type Draft, type WorkflowEditor, type WorkflowStatus } from './model';
import { failureOf, isStale, putBody, type Refused } from './saving';
import type { useDraft } from './useDraft';

type DraftState = ReturnType<typeof useDraft>;

export function useSave(id: string | null, d: DraftState) {
  const client = useQueryClient();
  const navigate = useNavigate();
  // A refusal is about the definition it was given: kept with it, and dropped as soon as the draft
  // is no longer that definition (the user is fixing it), so no stale error outlives its cause.
  const [refused, setRefused] = useState<Refused | null>(null);
  const [conflict, setConflict] = useState(false);

  const refresh = (e: WorkflowEditor) => {
    client.setQueryData(['hub', 'workflow-definition', e.id], e);
    // The workflow's list rows and its page (data/workflows.ts keys).
    void client.invalidateQueries({ queryKey: workflowKeys.all });
  };

  const save = useMutation({
    mutationFn: async ({ draft, force }: { draft: Draft; force?: boolean }) => {
      const body = definitionOf(draft);
      try {
        const e = id
          ? await api.put<WorkflowEditor>(`/hub/api/workflows/${id}/definition`, putBody(draft, d.updatedAt, force))
          : await api.post<WorkflowEditor>('/hub/api/workflows', body);
        return { e, sent: body };
      } catch (err) {
        throw Object.assign(err as Error, { sent: body });
      }
    },
    onMutate: () => {
      setRefused(null);
      setConflict(false);
    },
    onSuccess: ({ e }) => {
      refresh(e);
      d.saved(e);
      // The new workflow's own URL; its canvas keeps the blocks where the user put them.
      if (!id) navigate(`/workflows/${e.id}/build`, { replace: true, state: { positions: d.draft.positions } });
    },
    onError: (err: Error & { sent?: Definition }) => {
      const failure = failureOf(err, err.sent);
      if (failure && 'conflict' in failure) setConflict(true);
      else if (failure) setRefused(failure.refused);
    },
  });

  const { draft } = d;
  const { reset: resetSave } = save;
  const stale = isStale(refused, draft);
  useEffect(() => {
    if (!stale) return;
    setRefused(null);
    resetSave();
  }, [stale, resetSave]);
  const problem = stale ? null : (refused?.problem ?? null);

  const status = useMutation({
    mutationFn: (to: WorkflowStatus) => api.post<WorkflowEditor>(`/hub/api/workflows/${id}/status`, { status: to }),
    onSuccess: (e) => {
      refresh(e);
      d.saved(e, ['status']);
    },
  });

  const schedule = useMutation({
    mutationFn: (s: { schedule: string | null; schedule_timezone: string }) => api.put<WorkflowEditor>(`/hub/api/workflows/${id}/schedule`, s),
    onSuccess: (e) => {
      refresh(e);
      d.saved(e, ['schedule', 'schedule_timezone']);
    },
  });

  const run = useMutation({
    mutationFn: () => api.post<{ id: string }>(`/hub/api/workflows/${id}/runs`),
    onSuccess: () => void client.invalidateQueries({ queryKey: runKeys.lists() }),
  });

  /** Someone else saved first: take their version (dropping ours) — the conflict's "Reload". */
  const reload = async () => {
    if (!id) return;
    const e = await api.get<WorkflowEditor>(`/hub/api/workflows/${id}/definition`);
    refresh(e);
    d.discard(e);
    setConflict(false);
    setRefused(null);
  };

  return { save, status, schedule, run, problem, clearProblem: () => setRefused(null), conflict, dismissConflict: () => setConflict(false), reload };
}
