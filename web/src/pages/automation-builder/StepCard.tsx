// One step in the flow: its number, name, type and a line about its settings; its problems (from
// the server: they block publishing); move up and down, delete (confirmed), and its settings form
// opened in place. A branch shows its yes and no sides below it.
import { useEffect, useId, useRef, useState } from 'react';
import { STEP_SCHEMAS } from '@domain/step-schemas';
import { ConfirmDialog } from '../../components/controls';
import { stepSummary } from './model';
import { StepSettings, type StepContext } from './StepSettings';
import { BranchColumns, NextTarget } from './StepTargets';
import type { Step } from '../../data/automations';

export interface StepCardProps {
  step: Step;
  index: number;
  steps: readonly Step[];
  open: boolean;
  /** Just added: its settings open with the focus on its name. */
  focusOnOpen: boolean;
  onToggle: () => void;
  onChange: (s: Step) => void;
  onMove: (by: -1 | 1) => void;
  onDelete: () => void;
  /** Messages by field ('' = the step as a whole). */
  issues: ReadonlyMap<string, string>;
  ctx: StepContext;
  readOnly?: boolean;
}

export function StepCard({ step, index, steps, open, focusOnOpen, onToggle, onChange, onMove, onDelete, issues, ctx, readOnly }: StepCardProps) {
  const headingId = useId();
  const panelId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const [deleting, setDeleting] = useState(false);
  const issue = (field: string) => issues.get(field);
  useEffect(() => {
    if (!open || !focusOnOpen) return;
    // The name first, selected: typing replaces the type's label.
    const first = panel.current?.querySelector<HTMLInputElement>('input, select, textarea');
    first?.focus();
    if (first instanceof HTMLInputElement) first.select();
  }, [open, focusOnOpen]);
  const n = issues.size;
  const verb = open ? 'Close' : readOnly ? 'Show' : 'Edit';
  // Problems of fields the open form shows sit under those fields; the rest are listed on the card.
  const shownInForm = (f: string) => open && f !== '' && f !== 'type' && f !== 'id';
  const listed = [...issues].filter(([f]) => !shownInForm(f));
  const target = step.next ? steps.find((s) => s.id === step.next) : null;
  return (
    <article id={`step-${step.id}`} className={`builder-step-card card${n ? ' builder-step-card-invalid' : ''}`} aria-labelledby={headingId}>
      <div className="builder-step-head">
        <span className="builder-step-number" aria-hidden="true">
          {index + 1}
        </span>
        <div className="builder-step-title">
          <h3 id={headingId}>
            <span className="visually-hidden">Step {index + 1}: </span>
            {step.name || STEP_SCHEMAS[step.type].label}
          </h3>
          <p className="builder-step-type">
            {step.name !== STEP_SCHEMAS[step.type].label && <span className="builder-step-kind">{STEP_SCHEMAS[step.type].label} · </span>}
            {stepSummary(step)}
          </p>
        </div>
        {n > 0 && (
          <span className="badge badge-failed">
            {n} {n === 1 ? 'problem' : 'problems'}
          </span>
        )}
        <div className="builder-step-tools">
          <button type="button" className="button-secondary" aria-expanded={open} aria-controls={panelId} aria-label={`${verb} settings of ${step.name}`} onClick={onToggle}>
            {`${verb} settings`}
          </button>
          {!readOnly && (
            <>
              <button type="button" className="button-secondary builder-icon-button" aria-label={`Move ${step.name} up`} disabled={index === 0} onClick={() => onMove(-1)}>
                ↑
              </button>
              <button type="button" className="button-secondary builder-icon-button" aria-label={`Move ${step.name} down`} disabled={index === steps.length - 1} onClick={() => onMove(1)}>
                ↓
              </button>
              <button type="button" className="button-secondary builder-icon-button builder-danger-text" aria-label={`Delete ${step.name}`} onClick={() => setDeleting(true)}>
                ✕
              </button>
            </>
          )}
        </div>
      </div>
      {listed.length > 0 && (
        <ul className="builder-step-problems">
          {listed.map(([f, m]) => (
            <li key={f}>
              {f && <code>{f}</code>} {m}
            </li>
          ))}
        </ul>
      )}
      {target && <p className="builder-step-jump">Then goes to step {steps.indexOf(target) + 1}: {target.name}</p>}
      <fieldset disabled={readOnly} className="builder-plain">
        <legend className="visually-hidden">Settings of {step.name}</legend>
        {step.type === 'branch' && <BranchColumns step={step} index={index} steps={steps} onChange={onChange} issue={issue} />}
        <div id={panelId} ref={panel} hidden={!open} className="builder-step-panel">
          {open && (
            <>
              <StepSettings step={step} onChange={onChange} issue={issue} ctx={ctx} />
              {step.type !== 'branch' && step.type !== 'end' && <NextTarget step={step} index={index} steps={steps} onChange={onChange} error={issue('next')} />}
            </>
          )}
        </div>
      </fieldset>
      <ConfirmDialog
        open={deleting}
        title={`Delete ${step.name}?`}
        confirmLabel="Delete step"
        danger
        onConfirm={() => {
          setDeleting(false);
          onDelete();
        }}
        onCancel={() => setDeleting(false)}
      >
        <p>Steps that led to it go on to the step after it instead. Runs of the published version are not affected until you publish.</p>
      </ConfirmDialog>
    </article>
  );
}
