// One run: what it is, the draft to approve while it awaits approval (above Approve and Reject),
// and its steps as a timeline with each block's output. The status is live: the page polls every
// second until the run is final.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { StatusBadge, Time } from '../../components/controls';
import { QueryState } from '../../components/states';
import { api } from '../../lib/api';
import { dollars, duration, triggerWord, type RunDetail } from './model';
import { Output } from './Output';
import { ApprovalButtons, CancelRun, MoveError, useRunMove } from './RunActions';
import './runs.css';

function Timeline({ run }: { run: RunDetail }) {
  if (!run.steps.length) return <p className="state state-empty">No block has started yet.</p>;
  return (
    <ol className="timeline">
      {run.steps.map((s) => (
        <li key={s.node_id} className={`step-${s.status}`}>
          <div className="step-head">
            <h3>
              {s.node_id} <span className="muted">({s.node_kind})</span>
            </h3>
            <StatusBadge status={s.status} />
            <span className="muted">{duration(s.ms)}</span>
          </div>
          {s.error && <p className="step-error">Error: {s.error}</p>}
          {s.output && <Output output={s.output} title={`Output of ${s.node_id}`} />}
        </li>
      ))}
    </ol>
  );
}

function RunView({ run }: { run: RunDetail }) {
  const move = useRunMove(run);
  return (
    <>
      <div className="page-head">
        <h1 id="run-title">Run of {run.workflow_name}</h1>
        <span aria-live="polite">
          <StatusBadge status={run.status} />
        </span>
        {!run.final && <CancelRun run={run} move={move} />}
      </div>
      <p>{run.summary}</p>
      <MoveError move={move} />
      <dl className="run-facts">
        <dt>Workflow</dt>
        <dd>
          <Link to={`/workflows/${run.workflow_id}`}>{run.workflow_name}</Link>
        </dd>
        <dt>Trigger</dt>
        <dd>
          {triggerWord(run.trigger)}
          {run.started_by ? ` by ${run.started_by}` : ''}
        </dd>
        <dt>Created</dt>
        <dd>
          <Time iso={run.created_at} />
        </dd>
        <dt>Started</dt>
        <dd>
          <Time iso={run.started_at} />
        </dd>
        <dt>Finished</dt>
        <dd>
          <Time iso={run.finished_at} />
        </dd>
        <dt>Duration</dt>
        <dd>{duration(run.duration_ms)}</dd>
        <dt>Billed</dt>
        <dd>{dollars(run.billed_micros)}</dd>
        <dt>Run id</dt>
        <dd>
          <code>{run.id}</code>
        </dd>
      </dl>
      {run.approval && (
        <section className="card approval" aria-labelledby="approval-title">
          <h2 id="approval-title">Awaiting your approval</h2>
          {run.approval.message && <p>{run.approval.message}</p>}
          <Output output={run.approval.output} title="The output to approve" />
          <ApprovalButtons run={run} move={move} />
        </section>
      )}
      <h2>Steps</h2>
      <Timeline run={run} />
    </>
  );
}

export default function RunPage() {
  const { id = '' } = useParams();
  const q = useQuery({
    queryKey: ['hub', 'run', id],
    queryFn: () => api.get<RunDetail>(`/hub/api/runs/${encodeURIComponent(id)}`),
    refetchInterval: (query) => (query.state.data && !query.state.data.final ? 1_000 : false),
  });
  return (
    <section aria-labelledby="run-title">
      <p>
        <Link to="/runs">← All runs</Link>
      </p>
      {!q.data && <h1 id="run-title">Run</h1>}
      <QueryState q={q}>{(run) => <RunView run={run} />}</QueryState>
    </section>
  );
}
