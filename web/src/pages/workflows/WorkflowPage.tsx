// One workflow: what it is, its blocks in order (each with its settings and the blocks feeding
// it), its newest runs, "Run now", which starts a manual run and opens its page, "Open builder",
// and — for owners and admins — Delete.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { StatusBadge } from '../../components/controls';
import { Empty, ErrorNotice, QueryState } from '../../components/states';
import { api } from '../../lib/api';
import { isAdmin, useSession } from '../../lib/session';
import { DeleteWorkflow } from './DeleteWorkflow';
import { RunsTable } from '../runs/model';
import type { WorkflowBlock, WorkflowDetail } from './model';
import '../runs/runs.css';
import './workflows.css';

const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

function Block({ block }: { block: WorkflowBlock }) {
  const settings = Object.entries(block.config);
  return (
    <li>
      <h3>
        {block.id} <span className="muted">({block.kind})</span>
      </h3>
      <dl className="block-config">
        {block.inputs.length > 0 && (
          <>
            <dt>Takes from</dt>
            <dd>{block.inputs.join(', ')}</dd>
          </>
        )}
        {settings.map(([k, v]) => (
          <div key={k} className="config-row">
            <dt>{k}</dt>
            <dd>{show(v)}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
}

function RunNow({ wf }: { wf: WorkflowDetail }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const start = useMutation({
    mutationFn: () => api.post<{ id: string }>(`/hub/api/workflows/${wf.id}/runs`),
    onSuccess: (run) => {
      void client.invalidateQueries({ queryKey: ['hub', 'runs'] });
      navigate(`/runs/${run.id}`);
    },
  });
  return (
    <>
      <button type="button" onClick={() => start.mutate()} disabled={start.isPending || wf.block_count === 0}>
        {start.isPending ? 'Starting…' : 'Run now'}
      </button>
      <ErrorNotice error={start.error} />
    </>
  );
}

function WorkflowView({ wf }: { wf: WorkflowDetail }) {
  const admin = isAdmin(useSession());
  return (
    <>
      <div className="page-head">
        <h1 id="workflow-title">{wf.name}</h1>
        <StatusBadge status={wf.status} />
        <RunNow wf={wf} />
        <Link className="button button-secondary" to={`/workflows/${wf.id}/build`}>
          Open builder
        </Link>
        {admin && <DeleteWorkflow wf={wf} />}
      </div>
      {wf.description && <p>{wf.description}</p>}
      <dl className="run-facts">
        <dt>Project</dt>
        <dd>{wf.project_name ?? <span className="muted">none</span>}</dd>
        <dt>Schedule</dt>
        <dd>{wf.schedule ?? <span className="muted">none</span>}</dd>
      </dl>
      <h2>Blocks</h2>
      {wf.blocks.length ? (
        <ol className="blocks" aria-label="Blocks in order">
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
  const q = useQuery({
    queryKey: ['hub', 'workflow', id],
    queryFn: () => api.get<WorkflowDetail>(`/hub/api/workflows/${encodeURIComponent(id)}`),
    refetchInterval: 5_000,
  });
  return (
    <section aria-labelledby="workflow-title">
      <p>
        <Link to="/workflows">← All workflows</Link>
      </p>
      {!q.data && <h1 id="workflow-title">Workflow</h1>}
      <QueryState q={q}>{(wf) => <WorkflowView wf={wf} />}</QueryState>
    </section>
  );
}
