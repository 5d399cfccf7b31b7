// One run: what it is, the draft to approve while it awaits approval (above Approve and Reject),
// and its steps as a timeline with each block's output. The status is live: the page polls every
// second until the run is final (data/runs.ts runQuery).
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { StatusBadge, Time } from '../../components/controls';
import { DevAiLabel } from '../../components/dev/DevLabel';
import { PageHeader } from '../../components/PageHeader';
import { duration, triggerWord } from '../../components/runs/RunsTable';
import { QueryState } from '../../components/states';
import { runQuery, useRunMove, type RunDetail } from '../../data/runs';
import { dollars } from '../../lib/money';
import { Output } from './Output';
import { ApprovalButtons, CancelRun, MoveError } from './RunActions';
import './runs.css';

function Timeline({ run }: { run: RunDetail }) {
  if (!run.steps.length) return <p className="state state-empty">No block has started yet.</p>;
  return (
    <ol className="runs-timeline">
      {run.steps.map((s) => (
        <li key={s.node_id} className={`runs-step-${s.status}`}>
          <div className="runs-step-head">
            <h3>
              {s.node_id} <span className="muted">({s.node_kind})</span>
            </h3>
            <StatusBadge status={s.status} />
            <span className="muted">{duration(s.ms)}</span>
          </div>
          {s.error && <p className="runs-step-error">Error: {s.error}</p>}
          {s.development_ai && <DevAiLabel />}
          {s.output && <Output output={s.output} title={`Output of ${s.node_id}`} />}
        </li>
      ))}
    </ol>
  );
}

type Move = ReturnType<typeof useRunMove>;

function RunView({ run, move }: { run: RunDetail; move: Move }) {
  return (
    <>
      <p>{run.summary}</p>
      <MoveError move={move} />
      <dl className="facts">
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
        <section className="card runs-approval" aria-labelledby="approval-title">
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

/** The heading row: one element from loading to loaded, so focus stays on it. */
function RunHeader({ run, move }: { run: RunDetail | undefined; move: Move }) {
  return (
    <PageHeader id="run-title" title={run ? `Run of ${run.workflow_name}` : 'Run'}>
      {run && (
        <>
          <span aria-live="polite">
            <StatusBadge status={run.status} />
          </span>
          {!run.final && <CancelRun run={run} move={move} />}
        </>
      )}
    </PageHeader>
  );
}

export default function RunPage() {
  const { id = '' } = useParams();
  const q = useQuery(runQuery(id));
  const move = useRunMove(id, q.data?.workflow_id);
  return (
    <section aria-labelledby="run-title">
      <p>
        <Link to="/runs">← All runs</Link>
      </p>
      <RunHeader run={q.data} move={move} />
      <QueryState q={q}>{(run) => <RunView run={run} move={move} />}</QueryState>
    </section>
  );
}
