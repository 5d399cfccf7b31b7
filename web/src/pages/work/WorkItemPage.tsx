// A work item's page: its key and title, its fields (editable: ItemEditor.tsx), and its history
// with the comments (ItemHistory.tsx). The item comes from GET
// /hub/api/workmgmt/projects/{project}/items/{key}; a key with an earlier prefix finds it too.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Time } from '../../components/controls';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/states';
import { workItemQuery } from '../../data/work';
import { ItemEditor } from './ItemEditor';
import { ItemHistory } from './ItemHistory';
import './work.css';

export default function WorkItemPage() {
  const { projectId = '', itemKey = '' } = useParams();
  const q = useQuery(workItemQuery(projectId, itemKey));
  return (
    <section aria-labelledby="work-item-title">
      <p>
        <Link to={`/work/${projectId}`}>← Project</Link>
      </p>
      <QueryState q={q}>
        {(item) => (
          <>
            <PageHeader id="work-item-title" title={`${item.key} · ${item.title}`} />
            <p className="muted">
              Created <Time iso={item.created_at} /> · changed <Time iso={item.updated_at} />
            </p>
            <ItemEditor key={item.key} projectId={projectId} item={item} onReload={async () => (await q.refetch()).data} />
            <h2>History and comments</h2>
            <ItemHistory projectId={projectId} item={item} />
          </>
        )}
      </QueryState>
    </section>
  );
}
