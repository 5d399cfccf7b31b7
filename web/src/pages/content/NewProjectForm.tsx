// Content's "New project": a name and an optional description (POST /hub/api/projects). A new
// account has no project, and automations and output.project blocks need one, so the screens
// that find none link here (NEW_PROJECT_PATH, links.ts). The new project opens on its own screen.
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { MAX_PROJECT_DESCRIPTION_LENGTH, MAX_PROJECT_NAME_LENGTH } from '@domain/project';
import { Field } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { useCreateProject } from '../../data/projects';

export function NewProjectForm({ onCancel }: { onCancel: () => void }) {
  const navigate = useNavigate();
  const descriptionId = useId();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  // Every project list (Content's, the builders' pickers) is refreshed before the new one opens.
  const create = useCreateProject();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ name: name.trim(), description: description.trim() }, { onSuccess: (project) => void navigate(`/content/${project.id}`) });
  };
  return (
    <form className="card content-new-project" onSubmit={submit} aria-labelledby={`${descriptionId}-title`}>
      <h2 id={`${descriptionId}-title`}>New project</h2>
      <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={MAX_PROJECT_NAME_LENGTH} autoFocus />
      <div className="field">
        <label htmlFor={descriptionId}>Description (optional)</label>
        <textarea id={descriptionId} value={description} onChange={(e) => setDescription(e.target.value)} rows={3} maxLength={MAX_PROJECT_DESCRIPTION_LENGTH} />
      </div>
      <ErrorNotice error={create.error} />
      <div className="actions">
        <button type="submit" disabled={create.isPending || name.trim() === ''}>
          {create.isPending ? 'Creating…' : 'Create project'}
        </button>
        <button type="button" className="button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
