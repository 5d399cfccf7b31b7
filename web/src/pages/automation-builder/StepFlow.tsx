// The steps as a vertical flow: cards in the order they run (the arrow from one to the next is
// implied), an "Add step" between any two and at both ends, each card's settings opened in place.
// Read-only for a published version's view.
import { useState } from 'react';
import { Empty } from '../../components/states';
import { AddStepMenu } from './AddStepMenu';
import { insertStep, moveStep, newStep, removeStep, updateStep, type Issues } from './model';
import { StepCard } from './StepCard';
import type { StepType } from '@domain/automation';
import type { Step } from '../../data/automations';

const NO_ISSUES: ReadonlyMap<string, string> = new Map();

export function StepFlow({
  steps,
  setSteps,
  issues,
  microsPerSegment,
  consentRequired,
  readOnly,
}: {
  steps: readonly Step[];
  setSteps: (fn: (s: Step[]) => Step[]) => void;
  issues: Issues;
  microsPerSegment: number;
  consentRequired: boolean;
  readOnly?: boolean;
}) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [added, setAdded] = useState<string | null>(null);
  const toggle = (id: string) =>
    setOpen((o) => {
      const next = new Set(o);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const add = (at: number, type: StepType) => {
    const step = newStep(type, steps);
    setSteps((s) => insertStep(s, at, step));
    setOpen((o) => new Set([...o, step.id]));
    setAdded(step.id);
  };
  const adder = (at: number) =>
    !readOnly && <AddStepMenu where={at === 0 ? (steps.length ? 'at the start' : 'as the first step') : `after ${steps[at - 1]?.name ?? 'the step before'}`} onAdd={(t) => add(at, t)} />;
  return (
    <div className={readOnly ? 'builder-flow builder-flow-readonly' : 'builder-flow'}>
      <div className="builder-flow-start" aria-hidden="true">
        Trigger
      </div>
      {adder(0)}
      {steps.length === 0 ? (
        <Empty>No steps yet{readOnly ? '.' : ': add the first one.'}</Empty>
      ) : (
        <ol className="builder-flow-steps" aria-label="Steps, in the order they run">
          {steps.map((s, i) => (
            <li key={s.id} className="builder-flow-item">
              <StepCard
                step={s}
                index={i}
                steps={steps}
                open={open.has(s.id)}
                focusOnOpen={added === s.id}
                onToggle={() => toggle(s.id)}
                onChange={(next) => setSteps((all) => updateStep(all, s.id, () => next))}
                onMove={(by) => setSteps((all) => moveStep(all, all.findIndex((x) => x.id === s.id), by))}
                onDelete={() => setSteps((all) => removeStep(all, s.id))}
                issues={issues.get(s.id) ?? NO_ISSUES}
                ctx={{ earlierAi: steps.slice(0, i).filter((x) => x.type === 'ai.write').map((x) => x.id), microsPerSegment, consentRequired }}
                readOnly={readOnly}
              />
              {adder(i + 1)}
            </li>
          ))}
        </ol>
      )}
      <div className="builder-flow-end" aria-hidden="true">
        End
      </div>
    </div>
  );
}

