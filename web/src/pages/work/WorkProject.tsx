// A work-management project: its items in key order with the API's filters (status, type,
// words; kept in the URL so a filtered view can be bookmarked), paged, or as a board by status
// (?view=board, Board.tsx); and its sprints with totals.
import { useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Field, Select, StatusBadge } from '../../components/controls';
import { ListTable, useListQuery, type Column } from '../../components/list';
import { PageHeader } from '../../components/PageHeader';
import { workItemListQuery, type WorkItem } from '../../data/work';
import { Board } from './Board';
import { SprintTable } from './SprintTable';
import './work.css';
import { WM_STATUSES, WM_TYPES } from '@domain/work-item';
import { statusWord } from './words';

const STATUS_OPTIONS = [['', 'Any status'], ...WM_STATUSES.map((s) => [s, statusWord(s)] as const)] as const;
const TYPE_OPTIONS = [['', 'Any type'], ...WM_TYPES.map((t) => [t, t] as const)] as const;
const none = <span className="muted">—</span>;

const columns = (projectId: string): Column<WorkItem>[] => [
  {
    header: 'Key',
    cell: (i) => (
      <Link to={`/work/${projectId}/items/${i.key}`}>
        <code>{i.key}</code>
      </Link>
    ),
  },
  {
    header: 'Title',
    cell: (i) => (
      <>
        {i.title}
        {i.labels.length > 0 && <span className="muted"> · {i.labels.join(', ')}</span>}
      </>
    ),
  },
  { header: 'Type', cell: (i) => i.type },
  { header: 'Status', cell: (i) => <StatusBadge status={i.status} label={statusWord(i.status)} /> },
  { header: 'Assignee', cell: (i) => i.assignee?.name || none },
  { header: 'Points', cell: (i) => i.points ?? none },
  { header: 'Due', cell: (i) => i.due_date ?? none },
];

export default function WorkProject() {
  const { projectId = '' } = useParams();
  // The page of items comes with the project itself; the sprints are their own list.
  const list = useListQuery({ filters: ['status', 'type', 'q'], query: workItemListQuery(projectId) });
  const [typed, setTyped] = useState(list.filters.q);
  const [params] = useSearchParams();
  const board = params.get('view') === 'board';
  const viewLink = (to: 'board' | 'list') => {
    const next = new URLSearchParams(params);
    if (to === 'board') next.set('view', 'board');
    else next.delete('view');
    const q = next.toString();
    return q ? `?${q}` : '?';
  };
  // The previous page stays on screen while the next loads: only a page of this project names it.
  const project = list.q.data?.project.project_id === projectId ? list.q.data.project : undefined;
  const search = (e: FormEvent) => {
    e.preventDefault();
    list.setFilter('q', typed.trim());
  };
  return (
    <>
      <p>
        <Link to="/work">← Work management</Link>
      </p>
      <PageHeader title={project ? `${project.name} (${project.key_prefix})` : 'Project'}>
        <Link className="button" to={`/work/${projectId}/new`}>
          New item
        </Link>
      </PageHeader>
      <h2>Items</h2>
      <nav className="work-views" aria-label="Show the items as">
        <Link to={viewLink('list')} aria-current={board ? undefined : 'page'}>
          List
        </Link>
        <Link to={viewLink('board')} aria-current={board ? 'page' : undefined}>
          Board
        </Link>
      </nav>
      <form className="filters" onSubmit={search} role="search" aria-label="Filter items">
        {/* The board's columns are the statuses. */}
        {!board && <Select label="Status" value={list.filters.status} onChange={(v) => list.setFilter('status', v)} options={STATUS_OPTIONS} />}
        <Select label="Type" value={list.filters.type} onChange={(v) => list.setFilter('type', v)} options={TYPE_OPTIONS} />
        <Field label="Words" value={typed} onChange={(e) => setTyped(e.target.value)} maxLength={200} />
        <button type="submit">Search</button>
      </form>
      {board ? (
        <Board projectId={projectId} filters={list.filters} />
      ) : (
        <ListTable list={list} columns={columns(projectId)} rowKey={(i) => i.key} caption="Items in key order" label="Items" empty="No items match. Make one with New item." />
      )}
      <h2>Sprints</h2>
      <SprintTable projectId={projectId} />
    </>
  );
}
