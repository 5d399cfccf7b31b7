// One workflow: what it is, its blocks in order (each with its settings and the blocks feeding
// it), its newest runs, "Run now", which starts a manual run and opens its page, "Open builder",
// and — for owners and admins — Delete.
import { useQuery } from '@tanstack/react-query';
import { blockName, settingsInWords } from '@domain/block-words';
import { Link, useNavigate, useParams } from 'react-router';
import { StatusBadge } from '../../components/controls';
import { PageHeader } from '../../components/PageHeader';
import { RunsTable } from '../../components/runs/RunsTable';
import { Empty, ErrorNotice, QueryState } from '../../components/states';
import { useStartRun } from '../../data/runs';
import { workflowQuery, type WorkflowBlock, type WorkflowDetail } from '../../data/workflows';
import { isAdmin, useSession } from '../../lib/session';
import { DeleteWorkflow } from './DeleteWorkflow';
import './workflows.css';

/** A block named for what it does, its id as a detail, its settings labelled (@domain/block-words). */
function Block({ block }: { block: WorkflowBlock }) {
  const settings = settingsInWords(block.kind, block.config);
  return (
    <li>
      <h3>
        {blockName(block.kind)} <span className="muted">· {block.id}</span>
      </h3>
      <dl className="workflows-block-config">
        {block.inputs.length > 0 && (
          <>
            <dt>Takes from</dt>
            <dd>{block.inputs.join(', ')}</dd>
          </>
        )}
        {settings.map((s) => (
          <div key={s.label} className="workflows-config-row">
            <dt>{s.label}</dt>
            {/* Long text scrolls in its box: focusable, so a keyboard can scroll it too. */}
            <dd tabIndex={s.long ? 0 : undefined}>{s.value}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
}

function RunNow({ wf }: { wf: WorkflowDetail }) {
  const navigate = useNavigate();
  const start = useStartRun(wf.id);
  return (
    <>
      <button type="button" onClick={() => start.mutate(undefined, { onSuccess: (run) => void navigate(`/runs/${run.id}`) })} disabled={start.isPending || wf.block_count === 0}>
        {start.isPending ? 'Starting…' : 'Run now'}
      </button>
      <ErrorNotice error={start.error} />
    </>
  );
}

/** The heading row: one element from loading to loaded, so focus stays on it. */
function WorkflowHeader({ wf }: { wf: WorkflowDetail | undefined }) {
  const admin = isAdmin(useSession());
  return (
    <PageHeader id="workflow-title" title={wf?.name ?? 'Workflow'}>
      {wf && (
        <>
          <StatusBadge status={wf.status} />
          <RunNow wf={wf} />
          <Link className="button button-secondary" to={`/workflows/${wf.id}/build`}>
            Open builder
          </Link>
          {admin && <DeleteWorkflow wf={wf} />}
        </>
      )}
    </PageHeader>
  );
}

function WorkflowView({ wf }: { wf: WorkflowDetail }) {
  return (
    <>
      {wf.description && <p>{wf.description}</p>}
      <dl className="facts">
        <dt>Project</dt>
        <dd>{wf.project_name ?? <span className="muted">none</span>}</dd>
        <dt>Schedule</dt>
        <dd>{wf.schedule ?? <span className="muted">none</span>}</dd>
      </dl>
      <h2>Blocks</h2>
      {wf.blocks.length ? (
        <ol className="workflows-blocks" aria-label="Blocks in order">
          {wf.blocks.map((b) => (
            <Block key={b.id} block={b} />
          ))}
        </ol>
      ) : (
        <Empty>This workflow has no blocks yet, so it cannot run.</Empty>
      )}
      <h2>Runs</h2>
      {wf.recent_runs.length ? <RunsTable runs={wf.recent_runs} caption={`Newest runs of ${wf.name}`} showWorkflow={false} /> : <Empty>No runs yet.</Empty>}
      {wf.more_runs && (
        <p>
          <Link to={`/runs?workflow_id=${wf.id}`}>All runs of {wf.name}</Link>
        </p>
      )}
    </>
  );
}

export default function WorkflowPage() {
  const { id = '' } = useParams();
  const q = useQuery(workflowQuery(id));
  return (
    <section aria-labelledby="workflow-title">
      <p>
        <Link to="/workflows">← All workflows</Link>
      </p>
      <WorkflowHeader wf={q.data} />
      <QueryState q={q}>{(wf) => <WorkflowView wf={wf} />}</QueryState>
    </section>
  );
}
