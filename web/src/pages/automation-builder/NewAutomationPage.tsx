// A new automation (automations/new): first the project it belongs to (which sets its SMS consent
// and per-contact rules; created right here when the account has none), then a template
// (src/domain/starters.ts) made into a draft, or a blank one from its name and what starts it.
// Either is created as a draft (POST /hub/api/automations), never published, then built in the builder.
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { AUTOMATION_STARTERS, automationFromStarter } from '@domain/starters';
import { Field, Select } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { ProjectChoice } from '../../components/starters/ProjectChoice';
import { StarterCards } from '../../components/starters/StarterCards';
import { useCreateAutomation, type Definition } from '../../data/automations';
import type { Project } from '../../data/projects';
import { TRIGGER_TYPES as DOMAIN_TRIGGER_TYPES } from '@domain/automation';
import { TRIGGER_TYPES } from './words';
import { PageHeader } from '../../components/PageHeader';

function BlankForm({ project }: { project: Project }) {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [trigger, setTrigger] = useState<string>(DOMAIN_TRIGGER_TYPES[0]);
  const create = useCreateAutomation();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const chosen = TRIGGER_TYPES.find(([t]) => t === trigger);
    const body: Definition = {
      project_id: project.id,
      name: name.trim(),
      status: 'draft',
      trigger: { type: trigger || null, label: chosen?.[2] ?? '', config: trigger === 'schedule' ? { cron: '0 9 * * 1', timezone: 'UTC' } : {} },
      run_only_if: null,
      reenroll: 'never',
      steps: [],
    };
    create.mutate(body, { onSuccess: (created) => void navigate(`/automations/${created.automation.id}/build`) });
  };
  return (
    <form className="card builder-new-automation" onSubmit={submit} aria-label="Start blank">
      <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
      <Select label="Starts when" value={trigger} onChange={setTrigger} options={[...TRIGGER_TYPES.map(([t, words]): [string, string] => [t, words]), ['', 'Choose later']]} />
      <ErrorNotice error={create.error} />
      <div className="actions">
        <button type="submit" disabled={create.isPending || name.trim() === ''}>
          {create.isPending ? 'Creating…' : 'Create and open the builder'}
        </button>
        <Link className="button button-secondary" to="/automations">
          Cancel
        </Link>
      </div>
    </form>
  );
}

export default function NewAutomationPage() {
  const navigate = useNavigate();
  const [project, setProject] = useState<Project | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const create = useCreateAutomation();
  const use = (id: string) => {
    const starter = AUTOMATION_STARTERS.find((s) => s.id === id);
    if (!starter || !project) return;
    setPending(id);
    create.mutate(automationFromStarter(starter, project.id), {
      onSuccess: (created) => void navigate(`/automations/${created.automation.id}/build`),
      onSettled: () => setPending(null),
    });
  };
  return (
    <section aria-labelledby="new-automation-title">
      <p>
        <Link to="/automations">← Automations</Link>
      </p>
      <PageHeader id="new-automation-title" title="New automation" />
      <ProjectChoice what="An automation" value={project} onChange={setProject} />
      <StarterCards starters={AUTOMATION_STARTERS} use={use} pending={pending} error={create.error} disabled={!project} />
      <h2>Or start blank</h2>
      {project ? <BlankForm project={project} /> : <p className="hint">Choose or create a project first.</p>}
    </section>
  );
}
