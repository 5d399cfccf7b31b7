// The draft, saved as you go: every change is kept here at once and sent (PUT …/draft) once the
// editing pauses; one save at a time, the latest state always last (the queue itself is
// save-queue.ts, with no React in it). The answer refreshes what the server knows (problems,
// status, has_unpublished_changes); a refusal (422 invalid_field with the path inside the body) is
// kept against the steps that were sent, so it lands on the right step even after a reorder.
// Leaving the page with a change not yet saved is warned about; following a link in the hub sends
// it at once.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { automationKeys, saveDraft, type AutomationEditor, type DraftBody, type Step } from '../../data/automations';
import { HubError } from '../../lib/api';
import { issuesOf, type Issues } from './model';
import { SaveQueue, type SaveState } from './save-queue';

const PAUSE_MS = 700;

export function draftOf(e: AutomationEditor): DraftBody {
  const { name, trigger, run_only_if, reenroll, steps } = e.draft;
  return { name, trigger, run_only_if, reenroll, steps };
}

export function useDraft(id: string, initial: AutomationEditor) {
  const client = useQueryClient();
  const [draft, setDraft] = useState<DraftBody>(() => draftOf(initial));
  /** The last refusal's issues, against the steps that were sent. */
  const [refusal, setRefusal] = useState<Issues>(new Map());
  const [save, setSave] = useState<SaveState>({ kind: 'saved', at: null });
  // One queue for the builder's life (the builder is keyed by the automation's id).
  const [queue] = useState(
    () =>
      new SaveQueue<DraftBody, AutomationEditor>({
        initial: draftOf(initial),
        pauseMs: PAUSE_MS,
        save: (body) => saveDraft(id, body),
        onSaved: (editor) => {
          client.setQueryData(automationKeys.editor(id), editor);
          setRefusal(new Map());
        },
        onFailed: (err, body) => {
          if (err instanceof HubError && err.param) setRefusal(issuesOf([{ path: err.param, message: err.message }], body.steps));
          else setRefusal(new Map());
        },
        onState: setSave,
      }),
  );

  // Leaving the builder inside the hub (a link) with a change not yet sent: sent now, not dropped with the timer.
  useEffect(() => () => queue.leave(), [queue]);

  const unsaved = save.kind !== 'saved';
  useEffect(() => {
    if (!unsaved) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  const change = useCallback((fn: (d: DraftBody) => DraftBody) => setDraft(queue.edit(fn)), [queue]);

  const setSteps = useCallback((fn: (s: Step[]) => Step[]) => change((d) => ({ ...d, steps: fn(d.steps) })), [change]);

  /** Saves now what is not saved yet (before publishing or testing); false when the save was refused. */
  const flush = useCallback(() => queue.flush(), [queue]);
  const retry = useCallback(() => queue.send(), [queue]);

  return { draft, change, setSteps, save, refusal, flush, retry };
}
