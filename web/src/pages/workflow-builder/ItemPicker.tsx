// Pickers over the account's content: the workflow's project (the content projects), and a content
// item for `source.item` (a project, then one of its items — the hub lists items by project). Both
// search the server as the user types and say when there are more choices than shown.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { SearchPicker } from '../../components/list';
import { ErrorNotice } from '../../components/states';
import { itemListQuery, itemQuery, projectListQuery, projectQuery, type ItemSummary } from '../../data/projects';
import { NEW_PROJECT_PATH } from '../../lib/paths';

const PICKER_SIZE = '100';
const projectsNamed = (search: string) => projectListQuery({ q: search, limit: PICKER_SIZE });
const itemWords = (it: ItemSummary) => `${it.title} (${it.kind})`;

export function ProjectSelect({ label, value, onChange, error, hint }: { label: string; value: string | null; onChange: (v: string | null) => void; error?: string; hint?: string }) {
  // The chosen project by name even when the page of choices does not hold it.
  const chosen = useQuery(projectQuery(value ?? ''));
  return (
    <SearchPicker
      label={label}
      searchLabel="Search projects"
      value={value ?? ''}
      onChange={(v) => onChange(v || null)}
      query={projectsNamed}
      option={(p) => [p.id, p.name]}
      none="No project"
      searchable
      searchOnlyWhenMore
      current={chosen.data?.name ?? (chosen.isError ? 'Unknown project' : 'This project')}
      error={error}
      hint={hint}
      empty={
        <>
          This account has no project yet. <Link to={NEW_PROJECT_PATH}>Create one in Content</Link> (your unsaved changes stay in this browser).
        </>
      }
    />
  );
}

export function ItemPicker({ label, value, onChange, error }: { label: string; value: string; onChange: (v: string | undefined) => void; error?: string }) {
  const id = useId();
  // The chosen item's project, so an existing choice opens on it.
  const current = useQuery(itemQuery(value));
  const [projectId, setProjectId] = useState('');
  useEffect(() => {
    if (current.data && !projectId) setProjectId(current.data.project_id);
  }, [current.data, projectId]);
  const project = useQuery(projectQuery(projectId));
  return (
    <fieldset className={`wf-item-picker${error ? ' field-invalid' : ''}`} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{label}</legend>
      <SearchPicker
        label="Project of the item"
        searchLabel="Search projects"
        value={projectId}
        onChange={setProjectId}
        query={projectsNamed}
        option={(p) => [p.id, p.name]}
        none="Choose a project…"
        searchable
        searchOnlyWhenMore
        current={project.data?.name ?? 'This project'}
      />
      <SearchPicker
        label="Item"
        searchLabel="Search items by title"
        value={value}
        onChange={(v) => onChange(v || undefined)}
        query={(search) => itemListQuery(projectId)({ q: search, limit: PICKER_SIZE })}
        option={(it) => [it.id, itemWords(it)]}
        none={projectId ? 'Choose an item…' : 'Choose a project first'}
        searchable
        searchOnlyWhenMore
        disabled={!projectId}
        current={current.data ? itemWords(current.data) : 'This item'}
        error={error}
        empty={projectId ? 'This project has no items.' : undefined}
      />
      <ErrorNotice error={current.error} />
    </fieldset>
  );
}
