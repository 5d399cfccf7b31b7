// Create a key: name, scopes (each with what it lets the key do, served by the server), an
// optional expiry date and monthly cap. The value comes back once and is handed to the page.
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Field } from '../../components/controls';
import { ErrorNotice, QueryState } from '../../components/states';
import { fieldError } from '../../lib/error-words';
import { keyScopesQuery, useCreateKey, type Created } from '../../data/api-keys';
import { capMicros } from './types';

export function CreateKeyForm({ onCreated, onCancel }: { onCreated: (c: Created) => void; onCancel: () => void }) {
  const scopes = useQuery(keyScopesQuery());
  const [name, setName] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const [expires, setExpires] = useState('');
  const [cap, setCap] = useState('');
  const capValue = capMicros(cap);
  const create = useCreateKey();
  const toggle = (scope: string, on: boolean) => setPicked((p) => (on ? [...p, scope] : p.filter((s) => s !== scope)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (Number.isNaN(capValue)) return;
    create.mutate(
      {
        name,
        scopes: picked,
        // A date means "stops at the start of that day", in UTC like every time the API stores.
        expires_at: expires ? `${expires}T00:00:00Z` : null,
        monthly_spend_cap_micros: capValue,
      },
      { onSuccess: onCreated },
    );
  };
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  return (
    <form className="card keys-form" onSubmit={submit} aria-labelledby="create-key-title">
      <h2 id="create-key-title">New API key</h2>
      <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} hint="What the key is for, e.g. CRM sync." error={fieldError(create.error, 'name')} />
      <fieldset className="keys-scopes">
        <legend>Scopes</legend>
        <QueryState q={scopes}>
          {(d) => (
            <ul>
              {d.data.map((s) => (
                <li key={s.scope}>
                  <label className="checkbox">
                    <input type="checkbox" checked={picked.includes(s.scope)} onChange={(e) => toggle(s.scope, e.target.checked)} aria-describedby={`scope-${s.scope.replace(':', '-')}`} />
                    <code>{s.scope}</code>
                  </label>
                  <small id={`scope-${s.scope.replace(':', '-')}`} className="hint">
                    {s.description}
                  </small>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </fieldset>
      <Field label="Expires on (optional)" type="date" min={tomorrow} value={expires} onChange={(e) => setExpires(e.target.value)} hint="The key stops working at 00:00 UTC that day." error={fieldError(create.error, 'expires_at')} />
      <Field
        label="Monthly spend cap in US$ (optional)"
        inputMode="decimal"
        value={cap}
        onChange={(e) => setCap(e.target.value)}
        hint={Number.isNaN(capValue) ? 'Enter an amount such as 25 or 2.50, or leave empty for no cap.' : 'Empty: no cap.'}
        aria-invalid={Number.isNaN(capValue)}
        error={fieldError(create.error, 'monthly_spend_cap_micros')}
      />
      <ErrorNotice error={create.error} />
      <div className="actions">
        <button type="button" className="button-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
      </div>
    </form>
  );
}
