// The runs table the Runs screen and a workflow's page share: its columns, declared once for
// ListTable (the Runs screen) and for a plain table of a workflow's newest runs.
import { Link } from 'react-router';
import type { RunInList } from '../../data/runs';
import { StatusBadge, Time } from '../controls';
import { Table, type Column } from '../list';

const TRIGGER_WORDS: Record<string, string> = { api: 'API', manual: 'Run now', schedule: 'Schedule', chat: 'Chat' };
export const triggerWord = (t: string): string => TRIGGER_WORDS[t] ?? t;

/** 850 ms, 3.2 s, 4 min 5 s. */
export function duration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

export function runColumns(showWorkflow = true): Column<RunInList>[] {
  const cols: (Column<RunInList> | false)[] = [
    {
      header: 'Run',
      cell: (r) => (
        <>
          <Link to={`/runs/${r.id}`} aria-label={`Run ${r.id.slice(-8)} of ${r.workflow_name}`}>
            <code>{r.id.slice(-8)}</code>
          </Link>
          <div className="muted row-note">{r.summary}</div>
        </>
      ),
    },
    showWorkflow && { header: 'Workflow', cell: (r) => <Link to={`/workflows/${r.workflow_id}`}>{r.workflow_name}</Link> },
    { header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
    { header: 'Trigger', cell: (r) => triggerWord(r.trigger) },
    { header: 'Created', cell: (r) => <Time iso={r.created_at} /> },
    { header: 'Started', cell: (r) => <Time iso={r.started_at} /> },
    { header: 'Finished', cell: (r) => <Time iso={r.finished_at} /> },
    { header: 'Duration', cell: (r) => duration(r.duration_ms) },
  ];
  return cols.filter((c): c is Column<RunInList> => c !== false);
}

/** A fixed set of runs (no pager): a workflow's newest. */
export function RunsTable({ runs, caption, showWorkflow = true }: { runs: RunInList[]; caption: string; showWorkflow?: boolean }) {
  return <Table columns={runColumns(showWorkflow)} rows={runs} caption={caption} />;
}
