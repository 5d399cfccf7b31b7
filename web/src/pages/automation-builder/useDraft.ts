// The draft, saved as you go: every change is kept here at once and sent (PUT …/draft) once the
// editing pauses; one save at a time, the latest state always last. The answer refreshes what the
// server knows (problems, status, has_unpublished_changes); a refusal (422 invalid_field with the
// path inside the body) is kept against the steps that were sent, so it lands on the right step
// even after a reorder. Leaving the page with a change not yet saved is warned about; following a
// link in the hub sends it at once.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, HubError } from '../../lib/api';
import { issuesOf, type Issues } from './model';
import { editorKey, type AutomationEditor, type DraftBody, type Step } from './types';

const PAUSE_MS = 700;

export type SaveState = { kind: 'saved'; at: Date | null } | { kind: 'pending' } | { kind: 'saving' } | { kind: 'error'; error: unknown };

export function draftOf(e: AutomationEditor): DraftBody {
  const { name, trigger, run_only_if, reenroll, steps } = e.draft;
  return { name, trigger, run_only_if, reenroll, steps };
}

export function useDraft(id: string, initial: AutomationEditor) {
  const client = useQueryClient();
  const [draft, setDraft] = useState<DraftBody>(() => draftOf(initial));
  const [save, setSave] = useState<SaveState>({ kind: 'saved', at: null });
  /** The last refusal's issues, against the steps that were sent. */
  const [refusal, setRefusal] = useState<Issues>(new Map());
  const latest = useRef(draft);
  const edits = useRef(0);
  const savedEdits = useRef(0);
  const running = useRef<Promise<boolean> | null>(null);

  const send = useCallback(async (): Promise<boolean> => {
    // One save at a time: a save asked for meanwhile runs after it, with the state of then.
    while (running.current) await running.current;
    if (savedEdits.current === edits.current) return true;
    const body = latest.current;
    const at = edits.current;
    setSave({ kind: 'saving' });
    const p = (async () => {
      try {
        const editor = await api.put<AutomationEditor>(`/hub/api/automations/${id}/draft`, body);
        savedEdits.current = at;
        client.setQueryData(editorKey(id), editor);
        setRefusal(new Map());
        setSave(at === edits.current ? { kind: 'saved', at: new Date() } : { kind: 'pending' });
        return true;
      } catch (err) {
        if (err instanceof HubError && err.param) setRefusal(issuesOf([{ path: err.param, message: err.message }], body.steps));
        else setRefusal(new Map());
        setSave({ kind: 'error', error: err });
        return false;
      }
    })();
    running.current = p;
    try {
      return await p;
    } finally {
      running.current = null;
    }
  }, [client, id]);

  // Saved once the editing pauses.
  useEffect(() => {
    if (save.kind !== 'pending') return;
    const timer = setTimeout(() => void send(), PAUSE_MS);
    return () => clearTimeout(timer);
  }, [draft, save.kind, send]);

  // Leaving the builder inside the hub (a link) with a change not yet sent: sent now, not dropped with the timer.
  useEffect(
    () => () => {
      if (savedEdits.current !== edits.current) void send();
    },
    [send],
  );

  const unsaved = save.kind !== 'saved';
  useEffect(() => {
    if (!unsaved) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  const change = useCallback((fn: (d: DraftBody) => DraftBody) => {
    const next = fn(latest.current);
    latest.current = next;
    edits.current += 1;
    setDraft(next);
    setSave((s) => (s.kind === 'saving' ? s : { kind: 'pending' }));
  }, []);

  const setSteps = useCallback((fn: (s: Step[]) => Step[]) => change((d) => ({ ...d, steps: fn(d.steps) })), [change]);

  /** Saves now what is not saved yet (before publishing or testing); false when the save was refused. */
  const flush = useCallback(async () => {
    const ok = await send();
    if (ok && edits.current !== savedEdits.current) return send();
    return ok;
  }, [send]);

  return { draft, change, setSteps, save, refusal, flush, retry: send };
}
