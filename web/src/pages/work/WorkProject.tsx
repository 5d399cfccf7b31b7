// A work-management project: its items in key order with the API's filters (status, type,
// words; kept in the URL so a filtered view can be bookmarked), paged, and its sprints with totals.
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Field, Pager, Select, StatusBadge, useCursorPager } from '../../components/controls';
import { QueryState } from '../../components/states';
import { api, qs } from '../../lib/api';
import { SprintTable } from './SprintTable';
import { WM_STATUSES, WM_TYPES, type Page, type WorkItem, type WorkProject as Project } from './types';
import { PageHeader } from '../../components/PageHeader';

const label = (v: string) => v.replace(/_/g, ' ');
const STATUS_OPTIONS = [['', 'Any status'], ...WM_STATUSES.map((s) => [s, label(s)] as const)] as const;
const TYPE_OPTIONS = [['', 'Any type'], ...WM_TYPES.map((t) => [t, t] as const)] as const;

export default function WorkProject() {
  const { projectId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const type = params.get('type') ?? '';
  const words = params.get('q') ?? '';
  const [typed, setTyped] = useState(words);
  const pager = useCursorPager();
  const set = (key: string, value: string) => {
    pager.reset();
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next);
  };
  // The page of items comes with the project itself; the sprints are their own list.
  const items = useQuery({
    queryKey: ['work-items', projectId, status, type, words, pager.cursor],
    queryFn: () =>
      api.get<Page<WorkItem> & { project: Project }>(`/hub/api/workmgmt/projects/${projectId}/items${qs({ status, type, q: words, cursor: pager.cursor })}`),
    placeholderData: (previous) => (previous?.project.project_id === projectId ? previous : undefined),
  });
  const project = items.data?.project;
  const search = (e: FormEvent) => {
    e.preventDefault();
    set('q', typed.trim());
  };
  return (
    <>
      <p>
        <Link to="/work">← Work management</Link>
      </p>
      <PageHeader title={project ? `${project.name} (${project.key_prefix})` : 'Project'} />
      <h2>Items</h2>
      <form className="filters" onSubmit={search} role="search" aria-label="Filter items">
        <Select label="Status" value={status} onChange={(v) => set('status', v)} options={STATUS_OPTIONS} />
        <Select label="Type" value={type} onChange={(v) => set('type', v)} options={TYPE_OPTIONS} />
        <Field label="Words" value={typed} onChange={(e) => setTyped(e.target.value)} maxLength={200} />
        <button type="submit">Search</button>
      </form>
      <QueryState q={items} isEmpty={(p) => p.data.length === 0 && pager.page === 1} empty="No items match.">
        {(p) => (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Title</th>
                  <th scope="col">Type</th>
                  <th scope="col">Status</th>
                  <th scope="col">Assignee</th>
                  <th scope="col">Points</th>
                  <th scope="col">Due</th>
                </tr>
              </thead>
              <tbody>
                {p.data.map((i) => (
                  <tr key={i.key}>
                    <td>
                      <code>{i.key}</code>
                    </td>
                    <td>
                      {i.title}
                      {i.labels.length > 0 && <span className="muted"> · {i.labels.join(', ')}</span>}
                    </td>
                    <td>{i.type}</td>
                    <td>
                      <StatusBadge status={i.status} />
                    </td>
                    <td>{i.assignee?.name || <span className="muted">—</span>}</td>
                    <td>{i.points ?? <span className="muted">—</span>}</td>
                    <td>{i.due_date ?? <span className="muted">—</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager pager={pager} nextCursor={p.next_cursor} label="Items" />
          </>
        )}
      </QueryState>
      <h2>Sprints</h2>
      <SprintTable projectId={projectId} />
    </>
  );
}
