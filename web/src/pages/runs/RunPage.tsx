// One run: what it is, what it made (links to the pages it saved), its time as work and waiting
// for approval, the run it retries ("Retry of run …") and its newest retry, the draft to approve while it awaits approval (above Approve,
// Edit and Reject), and its steps as a timeline — each block named in words with its id as a
// detail, its output, and the decision taken on an approval. The status is live: the page polls
// every second until the run is final (data/runs.ts runQuery).
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { StatusBadge, Time } from '../../components/controls';
import { DevAiLabel } from '../../components/dev/DevLabel';
import { PageHeader } from '../../components/PageHeader';
import { duration, triggerWord } from '../../components/runs/RunsTable';
import { QueryState } from '../../components/states';
import { blockName } from '@domain/block-words';
import { runQuery, useRunMove, type RunDetail } from '../../data/runs';
import { dollars } from '../../lib/money';
import { Output } from './Output';
import { ApprovalButtons, CancelRun, MoveError, RunAgain } from './RunActions';
import './runs.css';

type Step = RunDetail['steps'][number];

/** "1.5 s of work, 32 s waiting for approval": the blocks' time, and a person's apart. */
function timeInWords(run: Pick<RunDetail, 'started_at' | 'work_ms' | 'approval_wait_ms'>): string {
  if (!run.started_at) return 'Not started yet';
  const work = `${duration(run.work_ms)} of work`;
  return run.approval_wait_ms === null ? work : `${work}, ${duration(run.approval_wait_ms)} waiting for approval`;
}

function Decision({ step }: { step: Step }) {
  const d = step.decision;
  if (!d) return null;
  const who = d.decided_by ?? 'the operator';
  if (d.outcome === 'rejected') {
    return (
      <p className="runs-decision">
        Rejected by {who} <Time iso={d.decided_at} />
        {d.reason ? <>: “{d.reason}”</> : ' (no reason given)'}
      </p>
    );
  }
  return (
    <div className="runs-decision">
      <p>
        Approved by {who} <Time iso={d.decided_at} />
        {d.original_text !== null ? ', with an edit: the run went on with the edited text below.' : ', as it stood.'}
      </p>
      {d.original_text !== null && (
        <details>
          <summary>The draft before the edit</summary>
          <Output output={{ text: d.original_text, html: null, item_id: null }} title={`The draft of ${step.node_id} before the edit`} />
        </details>
      )}
    </div>
  );
}

function Timeline({ run }: { run: RunDetail }) {
  if (!run.steps.length) return <p className="state state-empty">No block has started yet.</p>;
  return (
    <ol className="runs-timeline">
      {run.steps.map((s) => (
        <li key={s.node_id} className={`runs-step-${s.status}`}>
          <div className="runs-step-head">
            <h3>
              {blockName(s.node_kind)} <span className="muted">· {s.node_id}</span>
            </h3>
            <StatusBadge status={s.status} />
            <span className="muted">{duration(s.ms)}</span>
          </div>
          {s.error && s.decision?.outcome !== 'rejected' && <p className="runs-step-error">Error: {s.error}</p>}
          <Decision step={s} />
          {s.development_ai && <DevAiLabel />}
          {s.output?.item_id && (
            <p>
              <Link to={`/items/${s.output.item_id}`}>Open the page it saved</Link>
            </p>
          )}
          {s.output && <Output output={s.output} title={`Output of ${blockName(s.node_kind)} (${s.node_id})`} />}
        </li>
      ))}
    </ol>
  );
}

function Made({ run }: { run: RunDetail }) {
  if (!run.made.length) return null;
  return (
    <section aria-labelledby="made-title">
      <h2 id="made-title">What it made</h2>
      <ul className="runs-made">
        {run.made.map((m) => (
          <li key={m.item_id}>
            {m.title === null ? (
              <span className="muted">A page, deleted since</span>
            ) : (
              <Link to={`/items/${m.item_id}`}>{m.title}</Link>
            )}{' '}
            <span className="muted">(a {m.kind}, saved by {m.node_id})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The run this one retries, and this one's newest retry: each a link named by the run's short id. */
function Retries({ run }: { run: RunDetail }) {
  if (!run.retry_of && !run.latest_retry) return null;
  return (
    <ul className="runs-retries">
      {run.retry_of && (
        <li>
          <Link to={`/runs/${run.retry_of}`}>Retry of run {run.retry_of.slice(-8)}</Link>
        </li>
      )}
      {run.latest_retry && (
        <li>
          <Link to={`/runs/${run.latest_retry}`}>Retried as run {run.latest_retry.slice(-8)}</Link>
        </li>
      )}
    </ul>
  );
}

type Move = ReturnType<typeof useRunMove>;

function RunView({ run, move }: { run: RunDetail; move: Move }) {
  return (
    <>
      {/* /v1's one-line summary; for a run that succeeded, "Succeeded in 0.8 s" would say less than the
          Time below (work and waiting for approval apart), so the badge and that row say it. */}
      {run.status !== 'succeeded' && <p>{run.summary}</p>}
      <Retries run={run} />
      <MoveError move={move} />
      <dl className="facts">
        <dt>Workflow</dt>
        <dd>
          <Link to={`/workflows/${run.workflow_id}`}>{run.workflow_name}</Link>
        </dd>
        <dt>Trigger</dt>
        <dd>
          {/* A retry is a manual start, made with Run again rather than Run now. */}
          {run.retry_of ? 'Run again' : triggerWord(run.trigger)}
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
        <dt>Time</dt>
        <dd>{timeInWords(run)}</dd>
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
      <Made run={run} />
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
          {run.can_retry && <RunAgain run={run} />}
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
