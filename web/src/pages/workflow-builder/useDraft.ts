// The draft being edited, against the definition last saved: unsaved changes are kept in
// localStorage (one key per workflow, "new" before the first save) so a reload brings them back,
// and leaving with unsaved changes is warned about — by the browser (beforeunload) when the tab
// closes or reloads, and by the router (useBlocker) when the user navigates inside the hub.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useBlocker } from 'react-router';
import { sameDefinition, type Definition, type Draft, type WorkflowEditor } from './model';
import { laidOut, parseStored, startingDraft, type Stored } from './saving';

const PREFIX = 'switchboard.workflow-draft.';
export const storageKey = (id: string | null): string => `${PREFIX}${id ?? 'new'}`;

function readStored(key: string): Stored | null {
  try {
    return parseStored(localStorage.getItem(key));
  } catch {
    return null;
  }
}

export function useDraft(id: string | null, editor: WorkflowEditor | null, empty: Definition, positions?: Draft['positions']) {
  const key = storageKey(id);
  const [base, setBase] = useState<Definition>(() => editor?.definition ?? empty);
  // The last updated_at the server told us, and the one a save expects (a restored draft's own:
  // if the workflow changed since that draft began, saving it is a 409, not a silent overwrite).
  const serverAt = useRef<string | null>(editor?.updated_at ?? null);
  const [initial] = useState(() => startingDraft(readStored(key), editor, empty, positions));
  const [updatedAt, setUpdatedAt] = useState<string | null>(initial.updatedAt);
  const [draft, setDraft] = useState<Draft>(initial.draft);
  const [restored, setRestored] = useState(initial.restored);
  const dirty = !sameDefinition(draft, base);

  // Kept while unsaved; forgotten once saved (positions alone are not worth a restore notice).
  useEffect(() => {
    if (dirty) localStorage.setItem(key, JSON.stringify({ base_updated_at: updatedAt, draft } satisfies Stored));
    else localStorage.removeItem(key);
  }, [dirty, draft, key, updatedAt]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // Read at navigation time: a save that navigates (new → its build URL) must not be blocked by
  // the render before it.
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirtyRef.current && currentLocation.pathname !== nextLocation.pathname);

  /**
   * The server's answer to a save: it becomes the base, and the draft takes what the server kept —
   * everything, or only `fields` (a status or schedule change leaves other unsaved edits alone).
   */
  const saved = useCallback(
    (e: WorkflowEditor, fields?: readonly (keyof Definition)[]) => {
      if (!fields) dirtyRef.current = false;
      serverAt.current = e.updated_at;
      setBase(e.definition);
      setUpdatedAt(e.updated_at);
      setDraft((d) => (fields ? { ...d, ...Object.fromEntries(fields.map((f) => [f, e.definition[f]])) } : { ...d, ...e.definition, positions: d.positions }));
      setRestored(false);
      if (id === null) localStorage.removeItem(storageKey(null));
    },
    [id],
  );

  /** Drops the unsaved changes: back to what the server has. */
  const discard = useCallback(
    (to?: WorkflowEditor) => {
      const def = to?.definition ?? base;
      localStorage.removeItem(key);
      dirtyRef.current = false;
      if (to) {
        serverAt.current = to.updated_at;
        setBase(to.definition);
      }
      setUpdatedAt(serverAt.current);
      setDraft(laidOut(def));
      setRestored(false);
    },
    [base, key],
  );

  return { draft, setDraft, base, updatedAt, dirty, restored, dismissRestored: () => setRestored(false), saved, discard, blocker };
}
