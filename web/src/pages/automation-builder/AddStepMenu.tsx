// "Add step" at a place in the flow: a disclosure listing every step type with its description
// (STEP_SCHEMAS' label and description). Escape closes it and gives the focus back to its button.
import { useEffect, useId, useRef, useState } from 'react';
import { STEP_TYPES } from '@domain/automation';
import { STEP_SCHEMAS } from '@domain/step-schemas';
import type { StepType } from '@domain/automation';

export function AddStepMenu({ where, onAdd }: { where: string; onAdd: (type: StepType) => void }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) first.current?.focus();
  }, [open]);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div
      className="builder-add-step"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          close();
        }
      }}
    >
      <button ref={button} type="button" className="button-secondary builder-add-step-button" aria-expanded={open} aria-controls={listId} aria-label={`Add step ${where}`} onClick={() => setOpen(!open)}>
        Add step
      </button>
      {open && (
        <ul id={listId} className="builder-add-step-list" aria-label={`Step types to add ${where}`}>
          {STEP_TYPES.map((t, i) => (
            <li key={t}>
              <button
                ref={i === 0 ? first : undefined}
                type="button"
                className="builder-add-step-type"
                aria-describedby={`${listId}-${i}`}
                onClick={() => {
                  setOpen(false);
                  onAdd(t);
                }}
              >
                {STEP_SCHEMAS[t].label}
              </button>
              <span id={`${listId}-${i}`} className="hint">
                {STEP_SCHEMAS[t].description}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
