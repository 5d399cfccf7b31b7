// The shapes /hub/api/runs and /hub/api/workflows answer with, the words the run screens use, and
// the runs table the Runs screen and a workflow's page share.
import { Link } from 'react-router';
import { StatusBadge, Time } from '../../components/controls';

import { RUN_STATUSES, RUN_TRIGGERS } from '@domain/workflow';
export { RUN_STATUSES, RUN_TRIGGERS };

export interface RunInList {
  id: string;
  workflow_id: string;
  workflow_name: string;
  status: string;
  trigger: string;
  summary: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
}

export interface BlockOutput {
  text: string;
  html: string | null;
  item_id: string | null;
}

export interface RunStep {
  node_id: string;
  node_kind: string;
  status: string;
  started_at: string | null;
  finished_at: string | null;
  ms: number;
  error: string | null;
  output: BlockOutput | null;
}

export interface RunDetail extends RunInList {
  final: boolean;
  billed_micros: number;
  started_by: string | null;
  steps: RunStep[];
  approval: { node_id: string; message: string; output: BlockOutput } | null;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

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

export { dollars } from '../../lib/money';

export function RunsTable({ runs, caption, showWorkflow = true }: { runs: RunInList[]; caption: string; showWorkflow?: boolean }) {
  return (
    <table>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Run</th>
          {showWorkflow && <th scope="col">Workflow</th>}
          <th scope="col">Status</th>
          <th scope="col">Trigger</th>
          <th scope="col">Created</th>
          <th scope="col">Started</th>
          <th scope="col">Finished</th>
          <th scope="col">Duration</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.id}>
            <td>
              <Link to={`/runs/${r.id}`} aria-label={`Run ${r.id.slice(-8)} of ${r.workflow_name}`}>
                <code>{r.id.slice(-8)}</code>
              </Link>
              <div className="muted run-summary">{r.summary}</div>
            </td>
            {showWorkflow && (
              <td>
                <Link to={`/workflows/${r.workflow_id}`}>{r.workflow_name}</Link>
              </td>
            )}
            <td>
              <StatusBadge status={r.status} />
            </td>
            <td>{triggerWord(r.trigger)}</td>
            <td>
              <Time iso={r.created_at} />
            </td>
            <td>
              <Time iso={r.started_at} />
            </td>
            <td>
              <Time iso={r.finished_at} />
            </td>
            <td>{duration(r.duration_ms)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
