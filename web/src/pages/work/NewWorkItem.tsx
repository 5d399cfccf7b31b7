// "New item" in a work-management project: the item's fields; its key comes from the project's
// counter (never a number used before), then the item's page opens.
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { FormButtons } from '../../components/controls';
import { PageHeader } from '../../components/PageHeader';
import { ErrorNotice } from '../../components/states';
import { useCreateWorkItem } from '../../data/work';
import { EMPTY_ITEM, ItemFields, itemInput } from './ItemFields';
import './work.css';

export default function NewWorkItem() {
  const { projectId = '' } = useParams();
  const [draft, setDraft] = useState(EMPTY_ITEM);
  const navigate = useNavigate();
  const create = useCreateWorkItem(projectId);
  const back = `/work/${projectId}`;
  return (
    <section aria-labelledby="new-item-title">
      <p>
        <Link to={back}>← Project</Link>
      </p>
      <PageHeader id="new-item-title" title="New item" />
      <form
        className="card"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(itemInput(draft), { onSuccess: (item) => void navigate(`${back}/items/${item.key}`) });
        }}
      >
        <ItemFields draft={draft} onChange={setDraft} error={create.error} />
        <ErrorNotice error={create.error} />
        <FormButtons label="Create item" busyLabel="Creating…" busy={create.isPending} onCancel={() => void navigate(back)} />
      </form>
    </section>
  );
}
