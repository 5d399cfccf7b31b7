// A new automation (automations/new): its name, the project it belongs to (which sets its SMS
// consent and per-contact rules) and what starts it; created as a draft with no steps
// (POST /hub/api/automations), then built in the builder.
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Field, Select } from '../../components/controls';
import { ErrorNotice, QueryState } from '../../components/states';
import { NEW_PROJECT_PATH } from '../../lib/paths';
import { SearchPicker } from '../../components/list';
import { useCreateAutomation, type Definition } from '../../data/automations';
import { projectListQuery, type Project } from '../../data/projects';
import { TRIGGER_TYPES as DOMAIN_TRIGGER_TYPES } from '@domain/automation';
import { TRIGGER_TYPES } from './words';
import { PageHeader } from '../../components/PageHeader';

function NewForm({ newest }: { newest: Project }) {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [projectId, setProjectId] = useState(newest.id);
  const [trigger, setTrigger] = useState<string>(DOMAIN_TRIGGER_TYPES[0]);
  const create = useCreateAutomation();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const chosen = TRIGGER_TYPES.find(([t]) => t === trigger);
    const body: Definition = {
      project_id: projectId,
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
    <form className="card builder-new-automation" onSubmit={submit}>
      <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} autoFocus />
      {/* Searched on the server; the search box's label avoids "Name" and "Project", the fields' own. */}
      <SearchPicker
        label="Project"
        searchLabel="Search by words"
        value={projectId}
        onChange={setProjectId}
        query={(search) => projectListQuery({ q: search, limit: '100' })}
        option={(p) => [p.id, p.name]}
        searchable
        searchOnlyWhenMore
        current={newest.id === projectId ? newest.name : 'This project'}
      />
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
  // The first page: is there a project at all, and the newest (the default choice).
  const q = useQuery(projectListQuery({ q: '', limit: '100' }));
  return (
    <section aria-labelledby="new-automation-title">
      <p>
        <Link to="/automations">← Automations</Link>
      </p>
      <PageHeader id="new-automation-title" title="New automation" />
      <QueryState
        q={q}
        isEmpty={(d) => d.data.length === 0}
        empty={
          <>
            This account has no project yet: an automation belongs to a project. <Link to={NEW_PROJECT_PATH}>Create a project in Content</Link>, then
            come back here.
          </>
        }
      >
        {(d) => {
          const newest = d.data.at(0);
          return newest ? <NewForm newest={newest} /> : null;
        }}
      </QueryState>
    </section>
  );
}
