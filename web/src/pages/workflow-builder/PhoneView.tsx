// The workflow builder on a phone: what the workflow does, block by block in its order, in words
// (@domain/block-words, as the run page names them), and a note saying the builder needs a wider screen.
// A new workflow on a phone gets the note only.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { blockName } from '@domain/block-words';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/states';
import { StatusBadge } from '../../components/controls';
import { workflowQuery } from '../../data/workflows';
import './builder.css';

function WiderScreenNote({ editing }: { editing: boolean }) {
  return (
    <p className="notice notice-warn">
      {editing
        ? 'Changing a workflow needs a wider screen: open it on a computer or a tablet turned sideways. Here is what it does now.'
        : 'Building a workflow needs a wider screen: open this page on a computer or a tablet turned sideways.'}
    </p>
  );
}

export function PhoneView() {
  const { id } = useParams();
  const q = useQuery({ ...workflowQuery(id ?? ''), enabled: Boolean(id) });
  if (!id) {
    return (
      <>
        <p>
          <Link to="/workflows">← All workflows</Link>
        </p>
        <PageHeader title="New workflow" />
        <WiderScreenNote editing={false} />
      </>
    );
  }
  return (
    <>
      <p>
        <Link to={`/workflows/${id}`}>← The workflow&apos;s page</Link>
      </p>
      <QueryState q={q}>
        {(w) => (
          <>
            <PageHeader title={w.name} tabTitle={`Build ${w.name}`}>
              <StatusBadge status={w.status} />
            </PageHeader>
            <WiderScreenNote editing />
            <h2>Blocks, in order</h2>
            {w.blocks.length === 0 ? (
              <p className="muted">No blocks yet.</p>
            ) : (
              <ol className="wf-phone-blocks">
                {w.blocks.map((b) => (
                  <li key={b.id} className="card">
                    <strong>{blockName(b.kind)}</strong> <span className="muted">“{b.id}”</span>
                    {b.inputs.length > 0 && <p className="hint">Takes the output of {b.inputs.map((i) => `“${i}”`).join(', ')}.</p>}
                  </li>
                ))}
              </ol>
            )}
          </>
        )}
      </QueryState>
    </>
  );
}
