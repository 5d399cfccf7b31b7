// The workflow's own settings (name, description, project) and the actions on the saved workflow:
// Save, its status (Activate, Pause, Back to draft) and Run now, which link to the run it starts.
import { Link } from 'react-router';
import { useId } from 'react';
import { ProjectSelect } from './ItemPicker';
import type { Draft, WorkflowStatus } from './model';
import type { Problem } from './problems';
import { problemCount } from '@domain/workflow-check';

export function WorkflowSettings({ draft, problems, onChange }: { draft: Draft; problems: readonly Problem[]; onChange: (patch: Partial<Draft>) => void }) {
  const id = useId();
  const err = (name: string) => problems.find((x) => x.setting === name)?.short;
  const field = (name: 'name' | 'description', label: string, required: boolean) => (
    <div className={`field${err(name) ? ' field-invalid' : ''}`}>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        data-setting={name}
        value={draft[name]}
        required={required}
        aria-invalid={err(name) ? true : undefined}
        aria-describedby={err(name) ? `${id}-${name}-error` : undefined}
        onChange={(e) => onChange({ [name]: e.target.value })}
      />
      {err(name) && (
        <small id={`${id}-${name}-error`} className="field-error">
          {err(name)}
        </small>
      )}
    </div>
  );
  return (
    <section className="card wf-settings" aria-label="Workflow settings">
      <div className="wf-row">
        {field('name', 'Name', true)}
        {field('description', 'Description', false)}
        <ProjectSelect
          label="Project"
          value={draft.project_id}
          onChange={(v) => onChange({ project_id: v })}
          error={err('project_id')}
          hint="Where “Save as page” blocks put their pages."
        />
      </div>
    </section>
  );
}

const MOVES: Record<WorkflowStatus, { to: WorkflowStatus; label: string }[]> = {
  draft: [{ to: 'active', label: 'Activate' }],
  active: [
    { to: 'paused', label: 'Pause' },
    { to: 'draft', label: 'Back to draft' },
  ],
  paused: [
    { to: 'active', label: 'Activate' },
    { to: 'draft', label: 'Back to draft' },
  ],
};

export interface ActionsProps {
  /** Problems left in the draft: Save names how many. */
  problems: number;
  saved: boolean;
  dirty: boolean;
  status: WorkflowStatus;
  busy: boolean;
  onSave: () => void;
  onStatus: (to: WorkflowStatus) => void;
  onRun: () => void;
  runId: string | null;
}

export function BuilderActions(p: ActionsProps) {
  const later = !p.saved || p.dirty;
  return (
    <>
      <div className="actions wf-actions" role="group" aria-label="Workflow actions">
        <button type="button" onClick={p.onSave} disabled={p.busy || (p.saved && !p.dirty)} aria-describedby={p.problems ? 'wf-problem-count' : undefined}>
          {p.saved ? 'Save' : 'Save workflow'}
        </button>
        {p.problems > 0 && (
          <span id="wf-problem-count" className="wf-bad">
            {problemCount(p.problems)} to fix
          </span>
        )}
        {MOVES[p.status].map((m) => (
          <button key={m.to} type="button" className="button-secondary" onClick={() => p.onStatus(m.to)} disabled={p.busy || later}>
            {m.label}
          </button>
        ))}
        <button type="button" className="button-secondary" onClick={p.onRun} disabled={p.busy || later}>
          Run now
        </button>
        {later && <span className="muted wf-later">{p.saved ? 'Save your changes to change the status or run it.' : 'Save the workflow to activate or run it.'}</span>}
      </div>
      {p.runId && (
        <p className="notice notice-ok" role="status">
          Run started. <Link to={`/runs/${p.runId}`}>Open the run</Link>
        </p>
      )}
    </>
  );
}
