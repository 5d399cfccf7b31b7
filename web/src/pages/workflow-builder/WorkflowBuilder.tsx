// The workflow builder: /workflows/new/blank and /workflows/:id/build (through BuilderRoute). Loads the definition (an
// existing workflow) and hands it to the builder, remounted per workflow so a first save — which
// moves a new workflow to its own URL — starts the saved one cleanly.
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { QueryState } from '../../components/states';
import { workflowEditorQuery } from '../../data/workflows';
import { Builder } from './Builder';
import type { XY } from './model';
import './builder.css';
import { PageHeader } from '../../components/PageHeader';

export default function WorkflowBuilder() {
  const { id } = useParams();
  const location = useLocation();
  const handed = (location.state as { positions?: Record<string, XY> } | null)?.positions;
  const q = useQuery(workflowEditorQuery(id ?? ''));
  if (!id) return <Builder key="new" editor={null} />;
  return (
    <>
      {!q.data && (
        <>
          <p>
            <Link to="/workflows">← All workflows</Link>
          </p>
          <PageHeader id="wf-title" title="Workflow builder" />
        </>
      )}
      <QueryState q={q}>{(e) => <Builder key={e.id} editor={e} positions={handed} />}</QueryState>
    </>
  );
}
