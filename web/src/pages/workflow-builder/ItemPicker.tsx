// Pickers over the account's content: the workflow's project (a select of the content projects),
// and a content item for `source.item` (a project, then one of its items — the hub lists items by
// project). Both read the content routes the Content screens use.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/states';
import { api } from '../../lib/api';
import { NEW_PROJECT_PATH } from '../../lib/paths';
import type { Page } from '../../data/keys';
import type { ItemSummary as Item, Project } from '../../data/projects';

export function useProjects() {
  return useQuery({ queryKey: ['hub', 'projects', 'all'], queryFn: () => api.get<Page<Project>>('/hub/api/projects?limit=100') });
}

export function ProjectSelect({ label, value, onChange, error, hint }: { label: string; value: string | null; onChange: (v: string | null) => void; error?: string; hint?: string }) {
  const id = useId();
  const q = useProjects();
  const projects = q.data?.data ?? [];
  const none = q.isSuccess && projects.length === 0;
  const described = [hint && `${id}-hint`, error && `${id}-error`, none && `${id}-none`].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value || null)} aria-invalid={error ? true : undefined} aria-describedby={described} aria-busy={q.isPending || undefined}>
        <option value="">No project</option>
        {projects.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
        {value && !q.isPending && !projects.some((p) => p.id === value) && <option value={value}>Unknown project</option>}
      </select>
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      {none && (
        <small id={`${id}-none`} className="hint">
          This account has no project yet. <Link to={NEW_PROJECT_PATH}>Create one in Content</Link> (your unsaved changes stay in this browser).
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
      <ErrorNotice error={q.error} />
    </div>
  );
}

export function ItemPicker({ label, value, onChange, error }: { label: string; value: string; onChange: (v: string | undefined) => void; error?: string }) {
  const id = useId();
  const projects = useProjects();
  // The chosen item's project, so an existing choice opens on it.
  const current = useQuery({ queryKey: ['hub', 'item', value], queryFn: () => api.get<Item>(`/hub/api/items/${value}`), enabled: !!value });
  const [projectId, setProjectId] = useState('');
  useEffect(() => {
    if (current.data && !projectId) setProjectId(current.data.project_id);
  }, [current.data, projectId]);
  const items = useQuery({
    queryKey: ['hub', 'project-items', projectId, 'all'],
    queryFn: () => api.get<Page<Item>>(`/hub/api/projects/${projectId}/items?limit=100`),
    enabled: !!projectId,
  });
  return (
    <fieldset className={`wf-item-picker${error ? ' field-invalid' : ''}`}>
      <legend>{label}</legend>
      <div className="field">
        <label htmlFor={`${id}-project`}>Project of the item</label>
        <select id={`${id}-project`} value={projectId} onChange={(e) => setProjectId(e.target.value)}>
          <option value="">Choose a project…</option>
          {(projects.data?.data ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-item`}>Item</label>
        <select
          id={`${id}-item`}
          value={value}
          onChange={(e) => onChange(e.target.value || undefined)}
          disabled={!projectId}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        >
          <option value="">{projectId ? (items.isPending ? 'Loading items…' : 'Choose an item…') : 'Choose a project first'}</option>
          {(items.data?.data ?? []).map((it) => (
            <option key={it.id} value={it.id}>
              {it.title} ({it.kind})
            </option>
          ))}
          {value && current.data && !items.data?.data.some((it) => it.id === value) && <option value={value}>{current.data.title}</option>}
        </select>
        {projectId && items.data?.data.length === 0 && <small className="hint">This project has no items.</small>}
      </div>
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
      <ErrorNotice error={projects.error ?? items.error} />
    </fieldset>
  );
}
