// The builder's screen: the workflow's settings and actions on top; the palette and block list,
// the canvas and the selected block's panel side by side; the schedule below. The draft (useDraft)
// is the one truth every part edits; a refused save is placed on the block, edge or field it names.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog, StatusBadge } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
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
import { Schedule } from './Schedule';
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
    setDraft(next.draft);
    open(next.id);
  };
  const removeSelected = (ids: string[]) => {
    edit((x) => removeBlocks(x, ids));
    if (selection?.type === 'block' && ids.includes(selection.id)) setSelection(null);
  };
  const block = selection?.type === 'block' ? draft.blocks.find((b) => b.id === selection.id) : undefined;
  const edge = selection?.type === 'edge' ? draft.edges.find((e) => edgeId(e) === selection.id) : undefined;
  const problem = s.problem;
  const scheduleChanged = !!editor && (draft.schedule !== d.base.schedule || draft.schedule_timezone !== d.base.schedule_timezone);

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
        saved={!!id}
        dirty={d.dirty}
        status={d.base.status}
        busy={s.save.isPending || s.status.isPending || s.run.isPending}
        onSave={() => s.save.mutate({ draft })}
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
      {problem && (
        <div className="notice notice-error" role="alert">
          <p>Not saved: {problem.message}</p>
          {problem.block && (
            <p className="notice-meta">
              <button type="button" className="button-secondary wf-small" onClick={() => open(problem.block!.id)}>
                Show block {problem.block.id}
              </button>
            </p>
          )}
        </div>
      )}
      {!problem && !s.conflict && <ErrorNotice error={s.save.error} />}
      <ErrorNotice error={s.status.error ?? s.run.error} />
      <WorkflowSettings draft={draft} problem={problem} onChange={(patch) => edit((x) => ({ ...x, ...patch }))} />
      <div className="wf-grid">
        <div className="wf-side">
          <Palette onAdd={add} />
          <BlockList draft={draft} selected={block?.id ?? null} problem={problem} onOpen={open} />
        </div>
        <Canvas
          draft={draft}
          selection={selection}
          problem={problem}
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
              problem={problem}
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
              <h2 id="wf-panel-title">
                Edge {edge.from} → {edge.to}
              </h2>
              <p>
                <code>{edge.from}</code> passes its output to <code>{edge.to}</code>.
              </p>
              {problem?.edge === edgeId(edge) && <p className="notice notice-error">{problem.message}</p>}
              <button type="button" className="button-danger" onClick={() => edit((x) => disconnect(x, [edgeId(edge)]))}>
                Delete edge
              </button>
            </section>
          ) : (
            <section className="wf-panel card wf-panel-empty" aria-label="Block settings">
              <p className="muted">Select a block (on the canvas or in the Blocks list) to edit its settings, or add one from the palette.</p>
            </section>
          )}
        </div>
      </div>
      <Schedule
        schedule={draft.schedule}
        timezone={draft.schedule_timezone}
        onChange={(schedule, schedule_timezone) => edit((x) => ({ ...x, schedule, schedule_timezone }))}
        onSave={id ? () => s.schedule.mutate({ schedule: draft.schedule?.trim() || null, schedule_timezone: draft.schedule_timezone }) : undefined}
        onClear={id ? () => s.schedule.mutate({ schedule: null, schedule_timezone: draft.schedule_timezone }) : undefined}
        saving={s.schedule.isPending}
        changed={scheduleChanged}
        saved={d.base.schedule !== null}
        error={problem?.setting === 'schedule' || problem?.setting === 'schedule_timezone' ? problem.message : undefined}
        saveError={s.schedule.error}
      />
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
