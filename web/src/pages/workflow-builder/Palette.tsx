// The left column: the seven block kinds to add (each a button with its description), and the
// workflow's blocks as a list — the keyboard's way to reach any block's settings without the canvas.
import { useId, type RefObject } from 'react';
import { problemCount } from '@domain/workflow-check';
import { BLOCK_KINDS, BLOCK_SCHEMAS, type BlockKind, type Draft } from './model';
import { onBlock, type Problem } from './problems';

/** The palette's buttons carry their kind (`data-kind`), so "Back to palette" can land on the one last used. */
export function Palette({ onAdd, listRef }: { onAdd: (kind: BlockKind) => void; listRef: RefObject<HTMLUListElement | null> }) {
  const title = useId();
  return (
    <section className="wf-palette" aria-labelledby={title}>
      <h2 id={title}>Add a block</h2>
      <ul ref={listRef}>
        {BLOCK_KINDS.map((kind) => {
          const s = BLOCK_SCHEMAS[kind];
          return (
            <li key={kind}>
              {/* The name is "Add <label> block", the visible label inside it (WCAG 2.5.3). */}
              <button type="button" className="wf-palette-item" data-kind={kind} onClick={() => onAdd(kind)} aria-describedby={`${title}-${kind}`}>
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

export interface BlockListProps {
  draft: Draft;
  selected: string | null;
  problems: readonly Problem[];
  onOpen: (id: string) => void;
  /** The trigger, listed first: how the workflow starts. */
  trigger: { title: string; problem: boolean; current: boolean };
  onTrigger: () => void;
}

export function BlockList({ draft, selected, problems, onOpen, trigger, onTrigger }: BlockListProps) {
  const title = useId();
  return (
    <section className="wf-block-list" aria-labelledby={title}>
      <h2 id={title}>Blocks</h2>
      <p className={trigger.current ? 'wf-block-current wf-trigger-item' : 'wf-trigger-item'}>
        <button type="button" className="wf-block-link" aria-current={trigger.current ? 'true' : undefined} onClick={onTrigger}>
          Trigger
        </button>{' '}
        <span className="muted">{trigger.title}</span>
        {trigger.problem && <span className="wf-bad"> ({problemCount(1)})</span>}
      </p>
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
              {onBlock(problems, b.id).length > 0 && <span className="wf-bad"> ({problemCount(onBlock(problems, b.id).length)})</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
