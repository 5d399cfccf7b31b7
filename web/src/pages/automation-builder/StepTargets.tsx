// Where a contact goes after a step: on to the next step below (the implied arrow), or to a step
// named in `next`; a branch's yes and no each go to a step, shown as two columns listing the
// steps that follow on each side.
import { Labelled } from './ui';
import { chainFrom, fallThrough, setBranch } from './model';
import type { Step } from '../../data/automations';

function TargetSelect({ label, value, steps, self, fallback, onChange, error }: { label: string; value: string; steps: readonly Step[]; self: string; fallback: Step | null; onChange: (to: string) => void; error?: string }) {
  return (
    <Labelled label={label} error={error}>
      {(a) => (
        <select {...a} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{fallback ? `The next step below (${fallback.name})` : 'End the run'}</option>
          {steps.map(
            (s, i) =>
              s.id !== self && (
                <option key={s.id} value={s.id}>
                  {`Step ${i + 1}: ${s.name}`}
                </option>
              ),
          )}
        </select>
      )}
    </Labelled>
  );
}

/** A non-branch step's `next`. */
export function NextTarget({ step, index, steps, onChange, error }: { step: Step; index: number; steps: readonly Step[]; onChange: (s: Step) => void; error?: string }) {
  return (
    <TargetSelect
      label="After this step"
      value={step.next ?? ''}
      steps={steps}
      self={step.id}
      fallback={fallThrough(steps, index)}
      error={error}
      onChange={(to) => {
        const out = { ...step };
        if (to) out.next = to;
        else delete out.next;
        onChange(out);
      }}
    />
  );
}

const OUTCOMES = [
  ['yes', 'If yes'],
  ['no', 'If no'],
] as const;

/** A branch's two outcomes side by side, each with its target and the steps that follow it. */
export function BranchColumns({ step, index, steps, onChange, issue }: { step: Step; index: number; steps: readonly Step[]; onChange: (s: Step) => void; issue: (field: string) => string | undefined }) {
  const fallback = fallThrough(steps, index);
  return (
    <div className="builder-branch-columns">
      {OUTCOMES.map(([label, words]) => {
        const target = step.branches?.[label] ?? '';
        const chain = chainFrom(steps, target || fallback?.id || null);
        return (
          <div key={label} className={`builder-branch-column builder-branch-${label}`} role="group" aria-label={`${step.name}: ${words.toLowerCase()}`}>
            <TargetSelect
              label={`${words}, go to`}
              value={target}
              steps={steps}
              self={step.id}
              fallback={fallback}
              error={issue(`branches.${label}`)}
              onChange={(to) => onChange(setBranch(step, label, to))}
            />
            {chain.length ? (
              <ol className="builder-branch-chain" aria-label={`Steps ${words.toLowerCase()}`}>
                {chain.map((s) => (
                  <li key={s.id}>
                    <a href={`#step-${s.id}`}>{s.name}</a>
                  </li>
                ))}
              </ol>
            ) : (
              <p className="muted">The run ends.</p>
            )}
          </div>
        );
      })}
      {issue('branches') && <p className="field-error">{issue('branches')}</p>}
    </div>
  );
}
