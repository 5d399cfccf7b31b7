// The builder's screen: the workflow's settings and actions on top; the palette and block list,
// the canvas (the trigger at its top, then the blocks) and the selected block's or trigger's panel
// side by side. The draft (useDraft) is the one truth every part edits; its problems are worked
// out as it changes (the server's own validator, through @domain) and shown on their blocks,
// fields and edges; Save with problems left says how many and takes the focus to the first.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog, StatusBadge } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { problemCount } from '@domain/workflow-check';
import { BlockPanel } from './BlockPanel';
import { Canvas, type Selection } from './Canvas';
import { COLUMN_GAP, freeSpot, LAYER_GAP, layeredLayout } from './layout';
import {
  addBlock,
  connect,
  disconnect,
  EMPTY_DEFINITION,
  edgeId,
  removeBlocks,
  renameBlock,
  setConfig,
  type BlockKind,
  type Draft,
  type WorkflowEditor,
  type XY,
} from './model';
import { BlockList, Palette } from './Palette';
import { liveProblems, onBlock, type Problem } from './problems';
import { cronOf, DEFAULT_PICK, inZone, localZone, pickOf, pickWords } from './schedule-picker';
import { TriggerPanel, useSchedulePreview, type TriggerMode } from './TriggerPanel';
import type { TriggerNodeData } from './CanvasParts';
import { BuilderActions, WorkflowSettings } from './Settings';
import { useDraft } from './useDraft';
import { useSave } from './useSave';
import { PageHeader } from '../../components/PageHeader';

export function Builder({ editor, positions }: { editor: WorkflowEditor | null; positions?: Record<string, XY> }) {
  const id = editor?.id ?? null;
  const d = useDraft(id, editor, EMPTY_DEFINITION, positions);
  const s = useSave(id, d);
  const { draft, setDraft } = d;
  const [selection, setSelection] = useState<Selection>(null);
  const [runId, setRunId] = useState<string | null>(null);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // The server's copy changed under a clean draft (a refetch after another tab saved): follow it.
  const { updatedAt, dirty, discard } = d;
  useEffect(() => {
    if (editor && updatedAt && editor.updated_at > updatedAt && !dirty) discard(editor);
  }, [editor, updatedAt, dirty, discard]);

  const edit = (f: (x: Draft) => Draft) => setDraft((x) => f(x));

  // The trigger: a schedule is in the definition; Manually and API are what the person chose to
  // read about (both always work), kept in this screen only.
  const [chosenMode, setChosenMode] = useState<Exclude<TriggerMode, 'schedule'>>('manual');
  const mode: TriggerMode = draft.schedule !== null ? 'schedule' : chosenMode;
  const setAside = useRef<{ schedule: string; tz: string } | null>(null);
  const preview = useSchedulePreview(draft.schedule, draft.schedule_timezone);
  const onMode = (m: TriggerMode) => {
    if (m === 'schedule') {
      const back = setAside.current;
      const tz = draft.schedule_timezone === 'UTC' && d.base.schedule === null ? localZone() : draft.schedule_timezone;
      edit((x) => ({ ...x, schedule: back?.schedule ?? cronOf(DEFAULT_PICK), schedule_timezone: back?.tz ?? tz }));
      return;
    }
    if (draft.schedule !== null) setAside.current = { schedule: draft.schedule, tz: draft.schedule_timezone };
    edit((x) => ({ ...x, schedule: null }));
    setChosenMode(m);
  };
  // Memoised, like the problems below: the canvas rebuilds its nodes when either changes.
  const firstNext = preview.next?.[0];
  const trigger = useMemo<TriggerNodeData>(
    () =>
      mode === 'schedule'
        ? {
            title: pickWords(pickOf(draft.schedule)),
            detail: firstNext ? `Next: ${inZone(firstNext, draft.schedule_timezone)}` : draft.schedule_timezone,
            error: preview.problem ?? undefined,
          }
        : mode === 'api'
          ? { title: 'From the API', detail: 'An app starts it with a key' }
          : { title: 'Manually', detail: 'Run now in the hub' },
    [mode, draft.schedule, draft.schedule_timezone, firstNext, preview.problem],
  );

  // Every problem the draft has, live; a refusal the browser could not foresee is added after a save.
  const live = useMemo(() => liveProblems(draft), [draft]);
  const refused = s.problem;
  const problems = useMemo<Problem[]>(
    () => [
      ...live,
      ...(preview.problem ? [{ message: `Trigger: ${preview.problem}`, short: preview.problem, setting: 'schedule' }] : []),
      ...(refused && !live.some((x) => x.short === refused.short) ? [refused] : []),
    ],
    [live, preview.problem, refused],
  );
  // Save pressed with problems left: the notice stays until they are fixed.
  const [saveBlocked, setSaveBlocked] = useState(false);
  // Where the focus goes once the next render has put it on screen (the first selector that finds one).
  const [focusTo, setFocusTo] = useState<string[] | null>(null);
  useEffect(() => {
    if (!focusTo) return;
    setFocusTo(null);
    for (const sel of focusTo) {
      const el = document.querySelector<HTMLElement>(sel);
      if (el) return el.focus();
    }
  }, [focusTo]);
  const showProblem = (x: Problem) => {
    const inPanel = ['.wf-panel-col [aria-invalid="true"]', '.wf-panel-col h2'];
    if (x.block) setSelection({ type: 'block', id: x.block.id });
    else if (x.edge) setSelection({ type: 'edge', id: x.edge });
    else if (x.setting === 'schedule' || x.setting === 'schedule_timezone') setSelection({ type: 'trigger' });
    else return setFocusTo([`[data-setting="${x.setting}"]`, '#wf-title']);
    setFocusTo(inPanel);
  };
  const onSave = () => {
    const first = problems[0];
    if (!first) {
      setSaveBlocked(false);
      return s.save.mutate({ draft });
    }
    setSaveBlocked(true);
    showProblem(first);
  };

  // "Back to palette": after adding a block, one press returns to the kind just added.
  const paletteRef = useRef<HTMLUListElement>(null);
  const lastKind = useRef<BlockKind | null>(null);
  const toPalette = () => {
    const list = paletteRef.current;
    (list?.querySelector<HTMLButtonElement>(`[data-kind="${lastKind.current}"]`) ?? list?.querySelector<HTMLButtonElement>('button'))?.focus();
  };
  const open = (blockId: string) => {
    setSelection({ type: 'block', id: blockId });
    requestAnimationFrame(() => headingRef.current?.focus());
  };
  const add = (kind: BlockKind) => {
    const sel = selection?.type === 'block' ? draft.positions[selection.id] : undefined;
    // Below the selected block (the next step of a chain being built), else beside the rest.
    const at = sel ? { x: sel.x, y: sel.y + LAYER_GAP } : freeSpot(draft.positions);
    const taken = Object.values(draft.positions);
    while (taken.some((p) => Math.abs(p.x - at.x) < COLUMN_GAP / 2 && Math.abs(p.y - at.y) < LAYER_GAP / 2)) at.x += COLUMN_GAP;
    const next = addBlock(draft, kind, at);
    lastKind.current = kind;
    setDraft(next.draft);
    open(next.id);
  };
  const removeSelected = (ids: string[]) => {
    edit((x) => removeBlocks(x, ids));
    if (selection?.type === 'block' && ids.includes(selection.id)) setSelection(null);
  };
  const block = selection?.type === 'block' ? draft.blocks.find((b) => b.id === selection.id) : undefined;
  const edge = selection?.type === 'edge' ? draft.edges.find((e) => edgeId(e) === selection.id) : undefined;

  return (
    <section aria-labelledby="wf-title" className="wf-builder">
      <p>
        {id ? <Link to={`/workflows/${id}`}>← {d.base.name}</Link> : <Link to="/workflows">← All workflows</Link>}
      </p>
      <div className="page-head">
        <PageHeader id="wf-title" title={id ? `Build ${d.base.name}` : 'New workflow'} />
        {id && <StatusBadge status={d.base.status} />}
        <span className="wf-save-state" role="status">
          {d.dirty ? 'Unsaved changes' : id ? 'All changes saved' : 'Not saved yet'}
        </span>
      </div>
      {d.restored && (
        <div className="notice notice-warn" role="status">
          <p>
            Restored unsaved changes from your last visit.{' '}
            <button type="button" className="button-secondary wf-small" onClick={() => setConfirmDiscard(true)}>
              Discard
            </button>
          </p>
        </div>
      )}
      <BuilderActions
        problems={problems.length}
        saved={!!id}
        dirty={d.dirty}
        status={d.base.status}
        busy={s.save.isPending || s.status.isPending || s.run.isPending}
        onSave={onSave}
        onStatus={(to) => s.status.mutate(to)}
        onRun={() => s.run.mutate(undefined, { onSuccess: (r) => setRunId(r.id) })}
        runId={runId}
      />
      {s.conflict && (
        <div className="notice notice-error" role="alert">
          <p>Someone changed this workflow since you opened it. Reload it to see their version (your changes here are dropped), or save yours over it.</p>
          <div className="actions">
            <button type="button" onClick={() => void s.reload()}>
              Reload their version
            </button>
            <button type="button" className="button-danger" onClick={() => s.save.mutate({ draft, force: true })}>
              Save mine over it
            </button>
          </div>
        </div>
      )}
      {saveBlocked && problems.length > 0 && (
        <div className="notice notice-error" role="alert">
          <p>
            Not saved: {problemCount(problems.length)} {problems.length === 1 ? 'remains' : 'remain'}. The first: {problems[0]!.message}.
          </p>
          <p className="notice-meta">
            <button type="button" className="button-secondary wf-small" onClick={() => showProblem(problems[0]!)}>
              Show the first problem
            </button>
          </p>
        </div>
      )}
      {!refused && !s.conflict && <ErrorNotice error={s.save.error} />}
      <ErrorNotice error={s.status.error ?? s.run.error} />
      <WorkflowSettings draft={draft} problems={problems} onChange={(patch) => edit((x) => ({ ...x, ...patch }))} />
      <div className="wf-grid">
        <div className="wf-side">
          <Palette onAdd={add} listRef={paletteRef} />
          <BlockList
            draft={draft}
            selected={block?.id ?? null}
            problems={problems}
            onOpen={open}
            trigger={{ title: trigger.title, problem: !!trigger.error, current: selection?.type === 'trigger' }}
            onTrigger={() => {
              setSelection({ type: 'trigger' });
              requestAnimationFrame(() => headingRef.current?.focus());
            }}
          />
        </div>
        <Canvas
          draft={draft}
          selection={selection}
          problems={problems}
          trigger={trigger}
          onSelect={setSelection}
          onMove={(moves) => edit((x) => ({ ...x, positions: { ...x.positions, ...moves } }))}
          onConnect={(from, to) => edit((x) => connect(x, from, to))}
          onRemoveBlocks={removeSelected}
          onRemoveEdges={(ids) => {
            edit((x) => disconnect(x, ids));
            setSelection(null);
          }}
          onLayout={() => edit((x) => ({ ...x, positions: layeredLayout(x.blocks.map((b) => b.id), x.edges) }))}
        />
        <div className="wf-panel-col">
          {block ? (
            <BlockPanel
              draft={draft}
              block={block}
              problems={onBlock(problems, block.id)}
              workflowId={id}
              saved={d.base.blocks.some((b) => b.id === block.id && b.kind === block.kind)}
              onPalette={toPalette}
              headingRef={headingRef}
              onRename={(to) => {
                edit((x) => renameBlock(x, block.id, to));
                setSelection({ type: 'block', id: to });
              }}
              onConfig={(name, v) => edit((x) => setConfig(x, block.id, name, v))}
              onConnect={(from) => edit((x) => connect(x, from, block.id))}
              onDisconnect={(from) => edit((x) => disconnect(x, [`${from}->${block.id}`]))}
              onDelete={() => removeSelected([block.id])}
              onProject={(v) => edit((x) => ({ ...x, project_id: v }))}
              onClose={() => setSelection(null)}
            />
          ) : edge ? (
            <section className="wf-panel card" aria-labelledby="wf-panel-title">
              <h2 id="wf-panel-title" tabIndex={-1}>
                Edge {edge.from} → {edge.to}
              </h2>
              <p>
                <code>{edge.from}</code> passes its output to <code>{edge.to}</code>.
              </p>
              {problems
                .filter((x) => x.edge === edgeId(edge))
                .map((x) => (
                  <p key={x.short} className="notice notice-error">
                    {x.short}
                  </p>
                ))}
              <button type="button" className="button-danger" onClick={() => edit((x) => disconnect(x, [edgeId(edge)]))}>
                Delete edge
              </button>
            </section>
          ) : selection?.type === 'trigger' ? (
            <TriggerPanel
              workflowId={id}
              mode={mode}
              schedule={draft.schedule}
              timezone={draft.schedule_timezone}
              preview={preview}
              headingRef={headingRef}
              onMode={onMode}
              onSchedule={(schedule, schedule_timezone) => edit((x) => ({ ...x, schedule, schedule_timezone }))}
              onClose={() => setSelection(null)}
            />
          ) : (
            <section className="wf-panel card wf-panel-empty" aria-label="Block settings">
              <p className="muted">Select a block (on the canvas or in the Blocks list) to edit its settings, or add one from the palette. Select the trigger at the top of the graph to choose how the workflow starts.</p>
            </section>
          )}
        </div>
      </div>
      <ConfirmDialog
        open={confirmDiscard}
        title="Discard the restored changes?"
        confirmLabel="Discard changes"
        danger
        onConfirm={() => {
          setConfirmDiscard(false);
          d.discard();
        }}
        onCancel={() => setConfirmDiscard(false)}
      >
        <p>The builder goes back to {id ? 'the last saved version of this workflow' : 'an empty workflow'}; the changes restored from your last visit cannot be brought back.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={d.blocker.state === 'blocked'}
        title="Leave with unsaved changes?"
        confirmLabel="Leave"
        onConfirm={() => d.blocker.proceed?.()}
        onCancel={() => d.blocker.reset?.()}
      >
        <p>Your unsaved changes stay in this browser and come back when you open this builder again.</p>
      </ConfirmDialog>
    </section>
  );
}
