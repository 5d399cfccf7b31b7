// An item's fields as a form: only what changed is sent, with the updated_at the edit started from,
// so an edit never writes over someone else's (the server answers work_item_changed, shown with
// what to do: reload). Assigning is a button for everyone ("Assign to me") and a picker for owners
// and admins, who may list the account's people.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { SaveBar, Select } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { userListQuery } from '../../data/users';
import { useEditWorkItem, type EditItemBody, type HubWorkItem } from '../../data/work';
import { isAdmin, useSession } from '../../lib/session';
import { ItemFields, draftOfItem, itemInput } from './ItemFields';

/** onReload reads the item again; the form then starts from what is stored (someone else's change included). */
export function ItemEditor({ projectId, item, onReload }: { projectId: string; item: HubWorkItem; onReload: () => Promise<HubWorkItem | undefined> }) {
  const [draft, setDraft] = useState(() => draftOfItem(item));
  const [saved, setSaved] = useState(false);
  const edit = useEditWorkItem(projectId, item.key);
  const before = itemInput(draftOfItem(item)) as Record<string, unknown>;
  const after = itemInput(draft) as Record<string, unknown>;
  const changes = Object.fromEntries(Object.entries(after).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k])));
  const dirty = Object.keys(changes).length > 0;
  const send = (body: Omit<EditItemBody, 'expected_updated_at'>) => {
    setSaved(false);
    edit.mutate(
      { ...body, expected_updated_at: item.updated_at },
      {
        onSuccess: (i) => {
          setDraft(draftOfItem(i));
          setSaved(true);
        },
      },
    );
  };
  return (
    <>
      <Assignee item={item} busy={edit.isPending} onAssign={(assignee) => send({ assignee })} />
      <form
        className="card"
        aria-label="Item fields"
        onSubmit={(e) => {
          e.preventDefault();
          send(changes);
        }}
      >
        <ItemFields
          draft={draft}
          onChange={(d) => {
            setSaved(false);
            setDraft(d);
          }}
          error={edit.error}
        />
        <ErrorNotice error={edit.error} />
        <SaveBar dirty={dirty} busy={edit.isPending} saved={saved} onDiscard={() => setDraft(draftOfItem(item))}>
          <button
            type="button"
            className="button-secondary"
            onClick={() =>
              void onReload().then((i) => {
                if (!i) return;
                edit.reset();
                setSaved(false);
                setDraft(draftOfItem(i));
              })
            }
          >
            Reload
          </button>
        </SaveBar>
      </form>
    </>
  );
}

function Assignee({ item, busy, onAssign }: { item: HubWorkItem; busy: boolean; onAssign: (id: string | null) => void }) {
  const session = useSession();
  const me = session.account?.user_id ?? null;
  const admin = isAdmin(session);
  const users = useQuery({ ...userListQuery(), enabled: admin });
  const current = item.assignee;
  return (
    <div className="work-assignee">
      <span>
        Assignee: <strong>{current ? current.name : 'nobody'}</strong>
      </span>
      {me && current?.id !== me && (
        <button type="button" className="button-secondary" disabled={busy} onClick={() => onAssign(me)}>
          Assign to me
        </button>
      )}
      {current && (
        <button type="button" className="button-secondary" disabled={busy} onClick={() => onAssign(null)}>
          Unassign
        </button>
      )}
      {admin && users.data && (
        <Select
          label="Assign to"
          value={current?.id ?? ''}
          onChange={(v) => onAssign(v || null)}
          options={[['', 'Nobody'], ...users.data.data.map((u) => [u.id, u.name || u.email] as const)]}
        />
      )}
    </div>
  );
}
