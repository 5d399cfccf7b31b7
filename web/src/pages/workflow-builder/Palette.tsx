// The left column: the seven block kinds to add (each a button with its description), and the
// workflow's blocks as a list — the keyboard's way to reach any block's settings without the canvas.
import { useId } from 'react';
import { BLOCK_KINDS, BLOCK_SCHEMAS, type BlockKind, type Draft } from './model';
import type { Problem } from './problems';

export function Palette({ onAdd }: { onAdd: (kind: BlockKind) => void }) {
  const title = useId();
  return (
    <section className="wf-palette" aria-labelledby={title}>
      <h2 id={title}>Add a block</h2>
      <ul>
        {BLOCK_KINDS.map((kind) => {
          const s = BLOCK_SCHEMAS[kind];
          return (
            <li key={kind}>
              {/* The name is "Add <label> block", the visible label inside it (WCAG 2.5.3). */}
              <button type="button" className="wf-palette-item" onClick={() => onAdd(kind)} aria-describedby={`${title}-${kind}`}>
                <span className="visually-hidden">Add </span>
                {s.label}
                <span className="visually-hidden"> block</span>
              </button>
              <span className="wf-palette-desc" id={`${title}-${kind}`}>
                {s.description}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function BlockList({ draft, selected, problem, onOpen }: { draft: Draft; selected: string | null; problem: Problem | null; onOpen: (id: string) => void }) {
  const title = useId();
  return (
    <section className="wf-block-list" aria-labelledby={title}>
      <h2 id={title}>Blocks</h2>
      {draft.blocks.length === 0 ? (
        <p className="state state-empty">No blocks yet: add one above.</p>
      ) : (
        <ul>
          {draft.blocks.map((b) => (
            <li key={b.id} className={selected === b.id ? 'wf-block-current' : undefined}>
              <button type="button" className="wf-block-link" aria-current={selected === b.id ? 'true' : undefined} onClick={() => onOpen(b.id)}>
                <span className="visually-hidden">Settings of </span>
                {b.id}
              </button>{' '}
              <span className="muted">{BLOCK_SCHEMAS[b.kind].label}</span>
              {problem?.block?.id === b.id && <span className="wf-bad"> (problem)</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
