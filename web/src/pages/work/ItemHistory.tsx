// An item's history, oldest first: every change of a field (who, when, from → to) and the comments,
// each comment with Edit and Delete for its author (the server allows nobody else), and a form to
// add one. A comment's text is shown as written (Markdown source).
import { useState } from 'react';
import { ConfirmDialog, Time } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { useWorkComments, type HubWorkItem } from '../../data/work';
import { useSession } from '../../lib/session';
import { WM_LIMITS } from '@domain/work-item';
import { fieldWord, statusWord } from './words';

type Entry = HubWorkItem['history'][number];

/** People by id, as far as the item knows them: who made its entries, and who it is assigned to. */
function peopleOf(item: HubWorkItem): Map<string, string> {
  const people = new Map<string, string>();
  for (const e of item.history) if (e.actor) people.set(e.actor.id, e.actor.name);
  if (item.assignee) people.set(item.assignee.id, item.assignee.name);
  return people;
}

/** A changed value in words: a status as the board names it, a person by name, a sprint without its id. */
function shown(field: string, v: string | null, people: Map<string, string>): string {
  if (v === null || v === '') return field === 'sprint' ? 'the backlog' : field === 'assignee' ? 'nobody' : 'nothing';
  switch (field) {
    case 'status':
      return statusWord(v);
    case 'assignee':
      return people.get(v) ?? 'someone no longer in the account';
    case 'sprint':
      return 'a sprint';
    default:
      return v;
  }
}

export function ItemHistory({ projectId, item }: { projectId: string; item: HubWorkItem }) {
  const comments = useWorkComments(projectId, item.key);
  const [text, setText] = useState('');
  const people = peopleOf(item);
  return (
    <>
      {item.history.length === 0 ? (
        <p className="muted">No changes or comments yet.</p>
      ) : (
        <ol className="work-history" aria-label="History and comments, oldest first">
          {item.history.map((e) => (
            <li key={e.seq}>{e.kind === 'comment' ? <CommentEntry entry={e} comments={comments} /> : <ChangeEntry entry={e} people={people} />}</li>
          ))}
        </ol>
      )}
      <form
        className="card"
        aria-label="Add a comment"
        onSubmit={(e) => {
          e.preventDefault();
          comments.add.mutate(text, { onSuccess: () => setText('') });
        }}
      >
        <div className="field">
          <label htmlFor="work-new-comment">Comment</label>
          <textarea id="work-new-comment" rows={3} value={text} maxLength={WM_LIMITS.comment} onChange={(e) => setText(e.target.value)} required />
        </div>
        <ErrorNotice error={comments.add.error} />
        <div className="actions">
          <button type="submit" disabled={comments.add.isPending || text.trim() === ''}>
            {comments.add.isPending ? 'Adding…' : 'Add comment'}
          </button>
        </div>
      </form>
    </>
  );
}

function ChangeEntry({ entry, people }: { entry: Extract<Entry, { kind: 'change' }>; people: Map<string, string> }) {
  return (
    <div className="work-history-head">
      <span className="work-history-who">{entry.actor?.name ?? 'Switchboard'}</span>
      <span>
        changed the {fieldWord(entry.field)} from {shown(entry.field, entry.from, people)} to {shown(entry.field, entry.to, people)}
      </span>
      <Time iso={entry.at} />
    </div>
  );
}

function CommentEntry({ entry, comments }: { entry: Extract<Entry, { kind: 'comment' }>; comments: ReturnType<typeof useWorkComments> }) {
  const me = useSession().account?.user_id;
  const mine = entry.actor !== null && entry.actor.id === me;
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const inputId = `work-comment-${entry.seq}`;
  return (
    <>
      <div className="work-history-head">
        <span className="work-history-who">{entry.actor?.name ?? 'Switchboard'}</span>
        <span>commented</span>
        <Time iso={entry.at} />
        {entry.edited_at && (
          <span>
            (edited <Time iso={entry.edited_at} />)
          </span>
        )}
      </div>
      {editing === null ? (
        <p className="work-comment-text">{entry.text}</p>
      ) : (
        <form
          aria-label="Edit your comment"
          onSubmit={(e) => {
            e.preventDefault();
            comments.edit.mutate({ seq: entry.seq, text: editing }, { onSuccess: () => setEditing(null) });
          }}
        >
          <label htmlFor={inputId} className="visually-hidden">
            Your comment
          </label>
          <textarea id={inputId} rows={3} value={editing} maxLength={WM_LIMITS.comment} onChange={(e) => setEditing(e.target.value)} />
          <ErrorNotice error={comments.edit.error} />
          <div className="work-comment-actions">
            <button type="submit" disabled={comments.edit.isPending || editing.trim() === ''}>
              Save comment
            </button>
            <button type="button" className="button-secondary" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {mine && editing === null && (
        <div className="work-comment-actions">
          <button type="button" className="button-secondary" onClick={() => setEditing(entry.text)}>
            Edit
          </button>
          <button type="button" className="button-secondary" onClick={() => setConfirming(true)}>
            Delete
          </button>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title="Delete your comment?"
        confirmLabel="Delete comment"
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => comments.remove.mutate(entry.seq, { onSuccess: () => setConfirming(false) })}
      >
        <p>It is removed from the item for everyone. The item's other history stays.</p>
        <ErrorNotice error={comments.remove.error} />
      </ConfirmDialog>
    </>
  );
}
