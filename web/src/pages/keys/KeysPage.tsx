// Account → API keys (owners and admins): the account's keys, a form to create one, and the new
// key's value shown once after create or roll. A member who opens /keys gets the server's
// refusal (403 role_forbidden), shown as any error is; the menu never offers them the page.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CopyButton } from '../../components/controls';
import { QueryState } from '../../components/states';
import { apiKeyListQuery } from '../../data/api-keys';
import { CreateKeyForm } from './CreateKeyForm';
import { KeysTable } from './KeysTable';
import './keys.css';
import { PageHeader } from '../../components/PageHeader';

interface Shown {
  title: string;
  value: string;
  note?: string;
}

export default function KeysPage() {
  const q = useQuery(apiKeyListQuery());
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  const active = q.data?.data.filter((k) => k.state === 'active').length ?? 0;
  return (
    <>
      <PageHeader title="API keys" />
      <p className="muted">
        Keys call the <code>/v1</code> API for this account, within their scopes. {q.data && `${active} of ${q.data.max_active} active keys in use.`}
      </p>
      {shown && <OneTimeValue {...shown} onDone={() => setShown(null)} />}
      {creating ? (
        <CreateKeyForm
          onCancel={() => setCreating(false)}
          onCreated={(c) => {
            setCreating(false);
            setShown({ title: `Key "${c.key.name}" created`, value: c.value });
          }}
        />
      ) : (
        q.data && (
          <p>
            <button type="button" onClick={() => setCreating(true)}>
              Create key
            </button>
          </p>
        )
      )}
      <QueryState q={q} isEmpty={(d) => d.data.length === 0} empty="No API keys yet. Create one to call the API.">
        {(d) => (
          <KeysTable
            keys={d.data}
            onRolled={(r) =>
              setShown({
                title: `Key "${r.key.name}" rolled`,
                value: r.value,
                note: `The old key ${r.old.prefix}… works until ${r.old.expires_at ? new Date(r.old.expires_at).toLocaleString() : 'now'}.`,
              })
            }
          />
        )}
      </QueryState>
    </>
  );
}

/** A new key's value, shown once: the server keeps only its hash. Done dismisses it; a reload loses it on purpose. */
function OneTimeValue({ title, value, note, onDone }: { title: string; value: string; note?: string; onDone: () => void }) {
  return (
    <section className="card keys-value" aria-labelledby="key-value-title">
      <h2 id="key-value-title">{title}</h2>
      <p className="notice notice-warn" role="note">
        Copy this key now: it will not be shown again. Store it where your servers read secrets.
      </p>
      {note && <p>{note}</p>}
      <p className="keys-value-row">
        <code aria-label="New API key value" className="keys-secret">
          {value}
        </code>
        <CopyButton text={value} label="Copy key" />
      </p>
      <div className="actions">
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
