// The project a new workflow or automation goes into, chosen first: a project is a prerequisite of
// both builders, so a new account (no project yet) is offered to create one right here, named in
// one field, rather than meeting the refusal deep inside a builder. An existing account picks one
// (the newest by default) or makes another the same way.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { MAX_PROJECT_NAME_LENGTH } from '@domain/project';
import { Field, FormButtons } from '../controls';
import { SearchPicker } from '../list';
import { ErrorNotice, Loading } from '../states';
import { NEW_PROJECT_PATH } from '../../lib/paths';
import { projectListQuery, useCreateProject, type Project } from '../../data/projects';
import './starters.css';

/** The account's projects, newest first, or those whose name begins with the search. */
const projectsFor = (search: string) => projectListQuery({ q: search, limit: '100' });

function NewProject({ first, onCreated, onCancel }: { first: boolean; onCreated: (p: Project) => void; onCancel?: () => void }) {
  const [name, setName] = useState('');
  const create = useCreateProject();
  const titleId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ name: name.trim() }, { onSuccess: onCreated });
  };
  return (
    <form className="starters-new-project" onSubmit={submit} aria-labelledby={titleId}>
      <h3 id={titleId}>{first ? 'Create your first project' : 'New project'}</h3>
      <Field label="Project name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={MAX_PROJECT_NAME_LENGTH} placeholder="Newsletter" />
      <ErrorNotice error={create.error} />
      <FormButtons label="Create project" busyLabel="Creating…" busy={create.isPending} disabled={name.trim() === ''} onCancel={onCancel} />
    </form>
  );
}

/** `what`: "A workflow" / "An automation", for the sentence saying why a project is needed. */
export function ProjectChoice({ what, value, onChange }: { what: string; value: Project | null; onChange: (p: Project) => void }) {
  const q = useQuery(projectListQuery({ q: '', limit: '100' }));
  const [adding, setAdding] = useState(false);
  const newest = q.data?.data.at(0);
  // The newest project is the default choice once the list is known.
  useEffect(() => {
    if (!value && newest) onChange(newest);
  }, [value, newest, onChange]);
  if (q.isPending) return <Loading what="Loading your projects" />;
  if (q.error) return <ErrorNotice error={q.error} />;
  const created = (p: Project) => {
    setAdding(false);
    onChange(p);
  };
  if (!newest) {
    return (
      <div className="card starters-project">
        <p className="notice notice-warn">{what} belongs to a project (where its pages and settings live), and this account has none yet.</p>
        <NewProject first onCreated={created} />
        <p className="hint">
          Or, to give it a description too: <Link to={NEW_PROJECT_PATH}>Create a project in Content</Link>, then come back here.
        </p>
      </div>
    );
  }
  return (
    <div className="card starters-project">
      <SearchPicker
        label="Project"
        searchLabel="Search projects by name"
        value={value?.id ?? newest.id}
        onChange={(_, row) => row && onChange(row)}
        query={projectsFor}
        option={(p) => [p.id, p.name]}
        searchable
        searchOnlyWhenMore
        current={value?.name}
      />
      {adding ? (
        <NewProject first={false} onCreated={created} onCancel={() => setAdding(false)} />
      ) : (
        <button type="button" className="button-secondary" onClick={() => setAdding(true)}>
          New project
        </button>
      )}
    </div>
  );
}
