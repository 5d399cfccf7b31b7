// What the builder asks the server: save the definition (POST for a new workflow, PUT with the
// updated_at it started from otherwise, so a concurrent edit is a 409 instead of a silent
// overwrite; the trigger's schedule is part of it), change the status, and Run now. Each answer is a WorkflowEditor
// the draft takes as its new base.
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useStartRun } from '../../data/runs';
import { useFetchEditor, useSaveDefinition, useWorkflowStatus } from '../../data/workflows';
import { definitionOf, type Draft } from './model';
import { failureOf, isStale, putBody, type Refused } from './saving';
import type { useDraft } from './useDraft';

type DraftState = ReturnType<typeof useDraft>;

export function useSave(id: string | null, d: DraftState) {
  const navigate = useNavigate();
  // A refusal is about the definition it was given: kept with it, and dropped as soon as the draft
  // is no longer that definition (the user is fixing it), so no stale error outlives its cause.
  const [refused, setRefused] = useState<Refused | null>(null);
  const [conflict, setConflict] = useState(false);

  const saveDefinition = useSaveDefinition(id, {
    onMutate: () => {
      setRefused(null);
      setConflict(false);
    },
    onSuccess: (e) => {
      d.saved(e);
      // The new workflow's own URL; its canvas keeps the blocks where the user put them.
      if (!id) void navigate(`/workflows/${e.id}/build`, { replace: true, state: { positions: d.draft.positions } });
    },
    // What was sent is the body less the updated_at it started from.
    onError: (err, body) => {
      const failure = failureOf(err, definitionOf(body));
      if (failure && 'conflict' in failure) setConflict(true);
      else if (failure) setRefused(failure.refused);
    },
  });
  /** Save the draft: a PUT carries the updated_at it started from unless forced over ("Save mine over it"). */
  const save = {
    ...saveDefinition,
    mutate: ({ draft, force }: { draft: Draft; force?: boolean }) => saveDefinition.mutate(id ? putBody(draft, d.updatedAt, force) : definitionOf(draft)),
  };

  const { draft } = d;
  const { reset: resetSave } = saveDefinition;
  const stale = isStale(refused, draft);
  useEffect(() => {
    if (!stale) return;
    setRefused(null);
    resetSave();
  }, [stale, resetSave]);
  const problem = stale ? null : (refused?.problem ?? null);

  const status = useWorkflowStatus(id, { onSuccess: (e) => d.saved(e, ['status']) });
  const run = useStartRun(id ?? '');
  const fetchEditor = useFetchEditor();

  /** Someone else saved first: take their version (dropping ours) — the conflict's "Reload". */
  const reload = async () => {
    if (!id) return;
    // Their version replaces mine: my stored copy goes first, so nothing that renders the builder
    // afresh while their version loads (the editor's refetch) can bring mine back as "restored".
    d.discard();
    d.discard(await fetchEditor(id));
    setConflict(false);
    setRefused(null);
  };

  return { save, status, run, problem, clearProblem: () => setRefused(null), conflict, dismissConflict: () => setConflict(false), reload };
}
