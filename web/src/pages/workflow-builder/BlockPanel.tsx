// The selected block's panel: its id (renaming follows through edges and placeholders, checked by
// the server's id rule), its settings form, its inputs — a select chooses, Connect and Remove
// buttons act, which is how the keyboard connects blocks — and Delete. output.project also shows
// the workflow's project, where its pages go.
import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { ConfigForm } from './ConfigForm';
import { ProjectSelect } from './ItemPicker';
import { problemCount } from '@domain/workflow-check';
import { BLOCK_SCHEMAS, idProblem, inputsOf, type BlockDef, type Draft } from './model';
import { onField, type Problem } from './problems';
import { TestBlock } from './TestBlock';

export interface BlockPanelProps {
  draft: Draft;
  block: BlockDef;
  /** This block's problems, live. */
  problems: readonly Problem[];
  workflowId: string | null;
  /** Whether the saved workflow has this block (only a saved block can be tested). */
  saved: boolean;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onRename: (to: string) => void;
  onConfig: (name: string, v: unknown) => void;
  onConnect: (from: string) => void;
  onDisconnect: (from: string) => void;
  onDelete: () => void;
  onProject: (id: string | null) => void;
  onClose: () => void;
  /** Back to the palette: the keyboard's way out of the panel after adding a block. */
  onPalette: () => void;
}

function IdField({ draft, block, serverError, onRename }: { draft: Draft; block: BlockDef; serverError?: string; onRename: (to: string) => void }) {
  const id = useId();
  const [text, setText] = useState(block.id);
  const applied = useRef(block.id);
  // Another block selected (or renamed elsewhere): show its id.
  useEffect(() => {
    if (block.id !== applied.current) {
      applied.current = block.id;
      setText(block.id);
    }
  }, [block.id]);
  const problem = text === block.id ? serverError : idProblem(draft, text, block.id);
  return (
    <div className={`field${problem ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>Block id</label>
      <input
        id={id}
        value={text}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ''}`}
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          if (next !== block.id && !idProblem(draft, next, block.id)) {
            applied.current = next;
            onRename(next);
          }
        }}
      />
      <small id={`${id}-hint`} className="hint">
        Other blocks name this one as {`{{${block.id}}}`}.
      </small>
      {problem && (
        <small id={`${id}-error`} className="field-error">
          {problem}
        </small>
      )}
    </div>
  );
}

function Inputs({ draft, block, onConnect, onDisconnect }: Pick<BlockPanelProps, 'draft' | 'block' | 'onConnect' | 'onDisconnect'>) {
  const id = useId();
  const inputs = inputsOf(draft, block.id);
  const candidates = draft.blocks.filter((b) => b.id !== block.id && !inputs.includes(b.id));
  const outputs = draft.edges.filter((e) => e.from === block.id).map((e) => e.to);
  // The select only chooses (browsing it with the arrow keys fires change); the button connects.
  const [chosen, setChosen] = useState('');
  const pick = candidates.some((b) => b.id === chosen) ? chosen : '';
  const selectRef = useRef<HTMLSelectElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  // Where the focus goes once a connect or remove has re-rendered the list: the button it pressed
  // is gone or disabled, and the focus must not fall to the page.
  const [refocus, setRefocus] = useState<{ to: 'select' } | { to: 'remove'; from: string } | null>(null);
  useEffect(() => {
    if (!refocus) return;
    setRefocus(null);
    const select = selectRef.current;
    if (refocus.to === 'select' && select && !select.disabled) return select.focus();
    const from = refocus.to === 'remove' ? refocus.from : inputs[inputs.length - 1];
    const remove = [...(listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-from]') ?? [])].find((b) => b.dataset.from === from);
    (remove ?? select)?.focus();
  }, [refocus, inputs]);
  const connectChosen = () => {
    if (!pick) return;
    onConnect(pick);
    setChosen('');
    // Another block left to connect: stay on the select; else on the new input's Remove.
    setRefocus(candidates.length > 1 ? { to: 'select' } : { to: 'remove', from: pick });
  };
  return (
    <section aria-labelledby={id} className="wf-inputs">
      <h3 id={id}>Inputs</h3>
      {inputs.length ? (
        <ul ref={listRef}>
          {inputs.map((from) => (
            <li key={from}>
              <code>{from}</code>
              <button
                type="button"
                className="button-secondary wf-small"
                data-from={from}
                onClick={() => {
                  onDisconnect(from);
                  setRefocus({ to: 'select' });
                }}
                aria-label={`Remove input from ${from}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Nothing feeds this block.</p>
      )}
      <div className="field">
        <label htmlFor={`${id}-add`}>Add input from…</label>
        <div className="wf-connect">
          <select ref={selectRef} id={`${id}-add`} value={pick} onChange={(e) => setChosen(e.target.value)} disabled={!candidates.length}>
            <option value="">{candidates.length ? 'Choose a block…' : 'No other block to connect'}</option>
            {candidates.map((b) => (
              <option key={b.id} value={b.id}>
                {b.id} ({BLOCK_SCHEMAS[b.kind].label})
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button-secondary wf-small"
            onClick={connectChosen}
            disabled={!pick}
            aria-label={pick ? `Connect ${pick} to ${block.id}` : `Connect a block to ${block.id}`}
          >
            Connect
          </button>
        </div>
      </div>
      <p className="muted">{outputs.length ? `Passes its output to ${outputs.join(', ')}.` : 'Passes its output to no block yet.'}</p>
    </section>
  );
}

export function BlockPanel(p: BlockPanelProps) {
  const { block, problems, draft } = p;
  const schema = BLOCK_SCHEMAS[block.kind];
  const fieldNames = schema.fields.map((f) => f.name);
  // Problems no field of the form shows (a setting it does not take, the kind): listed on top.
  const loose = problems.filter((x) => !x.block?.field || (x.block.field !== 'id' && !fieldNames.includes(x.block.field)));
  const name = `“${block.id}” (${schema.label})`;
  return (
    <section className="wf-panel card" aria-labelledby="wf-panel-title">
      <div className="wf-panel-head">
        <h2 id="wf-panel-title" ref={p.headingRef} tabIndex={-1}>
          {schema.label}: {block.id}
        </h2>
        <button type="button" className="button-secondary wf-small" onClick={p.onClose} aria-label={`Close the settings of block ${name}`}>
          Close
        </button>
      </div>
      <p className="wf-skip">
        <button type="button" className="button-secondary wf-small" onClick={p.onPalette}>
          Back to palette
        </button>
      </p>
      <p className="muted">{schema.description}</p>
      {problems.length > 0 && (
        <p className="wf-panel-problems">
          <span aria-hidden="true">⚠ </span>
          {problemCount(problems.length)} on this block.
        </p>
      )}
      {loose.length > 0 && (
        <ul className="notice notice-error">
          {loose.map((x) => (
            <li key={x.short}>{x.short}</li>
          ))}
        </ul>
      )}
      <IdField key={block.kind} draft={draft} block={block} serverError={onField(problems, 'id')} onRename={p.onRename} />
      <ConfigForm block={block} inputs={inputsOf(draft, block.id)} errorOf={(f) => onField(problems, f)} onChange={p.onConfig} />
      {block.kind === 'output.project' && (
        <>
          <ProjectSelect
            label="Workflow's project (where the page is saved)"
            value={draft.project_id}
            onChange={p.onProject}
            hint="The same setting as the workflow's project."
          />
          {!draft.project_id && (
            <p className="notice notice-warn">This workflow has no project, so this block has nowhere to save its page. Choose a project.</p>
          )}
        </>
      )}
      <Inputs key={`inputs:${block.id}`} draft={draft} block={block} onConnect={p.onConnect} onDisconnect={p.onDisconnect} />
      <TestBlock workflowId={p.workflowId} block={block} draft={draft} saved={p.saved} />
      <div className="actions">
        <button type="button" className="button-danger" onClick={p.onDelete} aria-label={`Delete block ${name}`}>
          Delete block
        </button>
      </div>
    </section>
  );
}
