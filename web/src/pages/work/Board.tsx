// A project's board: its items in columns by status (the first 100 in key order, with the list's
// filters). An item moves with its "Move to" menu — the keyboard's way, and the only one until drag
// and drop comes — which saves the status with the version the card showed, so a move never writes
// over someone else's change (work_item_changed: the board reads the items again).
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Select } from '../../components/controls';
import { ErrorNotice, QueryState } from '../../components/states';
import { useEditWorkItem, workItemListQuery, type WorkItem } from '../../data/work';
import { WM_STATUSES } from '@domain/work-item';
import { statusWord } from './words';

/** The most items one request reads (the list's own limit); more are named, not shown. */
const BOARD_ITEMS = '100';

export function Board({ projectId, filters }: { projectId: string; filters: Record<string, string> }) {
  const q = useQuery(workItemListQuery(projectId)({ ...filters, status: '', limit: BOARD_ITEMS }));
  return (
    <QueryState q={q}>
      {(page) => (
        <>
          {page.has_more && <p className="muted">The board shows the first {BOARD_ITEMS} items in key order; filter to see others.</p>}
          <div className="work-board">
            {WM_STATUSES.map((status) => {
              const items = page.data.filter((i) => i.status === status);
              const headingId = `work-column-${status}`;
              return (
                <section key={status} className="work-column" aria-labelledby={headingId}>
                  <h3 id={headingId}>
                    {statusWord(status)} <span className="muted">({items.length})</span>
                  </h3>
                  {items.length === 0 ? (
                    <p className="muted">Nothing here.</p>
                  ) : (
                    <ul aria-labelledby={headingId}>
                      {items.map((i) => (
                        <Card key={i.key} projectId={projectId} item={i} />
                      ))}
                    </ul>
                  )}
                </section>
              );
            })}
          </div>
        </>
      )}
    </QueryState>
  );
}

function Card({ projectId, item }: { projectId: string; item: WorkItem }) {
  const move = useEditWorkItem(projectId, item.key);
  return (
    <li className="work-card">
      <Link to={`/work/${projectId}/items/${item.key}`}>
        <code>{item.key}</code> {item.title}
      </Link>
      <p className="work-card-meta">
        {item.type}
        {item.assignee && <> · {item.assignee.name}</>}
        {item.points !== null && <> · {item.points} pts</>}
      </p>
      <Select
        label={`Move ${item.key} to`}
        value={item.status}
        onChange={(status) => move.mutate({ status: status as WorkItem['status'], expected_updated_at: item.updated_at })}
        options={WM_STATUSES.map((s) => [s, statusWord(s)] as const)}
      />
      <ErrorNotice error={move.error} />
    </li>
  );
}
