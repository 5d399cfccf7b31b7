// A key's actions in its row: edit (name and cap), roll (a new key; the old one lasts the chosen
// grace) and revoke (fails from the next request). Each opens a modal dialog; the server's
// refusal shows inside it with its request id.
import { useState } from 'react';
import { ConfirmDialog, Field, Select } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { useEditKey, useRevokeKey, useRollKey, type HubKey, type Rolled } from '../../data/api-keys';
import { capMicros, capText, GRACES } from './types';

type Open = 'edit' | 'roll' | 'revoke' | null;

export function KeyActions({ k, onRolled }: { k: HubKey; onRolled: (r: Rolled) => void }) {
  const [open, setOpen] = useState<Open>(null);
  const [name, setName] = useState(k.name);
  const [cap, setCap] = useState(capText(k.monthly_spend_cap_micros));
  const [grace, setGrace] = useState('24h');
  const edit = useEditKey(k.id);
  const revoke = useRevokeKey(k.id);
  const roll = useRollKey(k.id);
  const close = { onSuccess: () => setOpen(null) };
  const show = (what: Open) => {
    for (const m of [edit, revoke, roll]) m.reset();
    setName(k.name);
    setCap(capText(k.monthly_spend_cap_micros));
    setOpen(what);
  };
  const usable = k.state === 'active' || k.state === 'rolled';
  if (!usable) return <span className="muted">—</span>;
  const label = `${k.name} (${k.prefix}…)`;
  const capBad = Number.isNaN(capMicros(cap));
  return (
    <div className="keys-actions">
      <button type="button" className="button-secondary" aria-label={`Edit ${label}`} onClick={() => show('edit')}>
        Edit
      </button>
      {k.state === 'active' && (
        <button type="button" className="button-secondary" aria-label={`Roll ${label}`} onClick={() => show('roll')}>
          Roll
        </button>
      )}
      <button type="button" className="button-danger" aria-label={`Revoke ${label}`} onClick={() => show('revoke')}>
        Revoke
      </button>

      <ConfirmDialog open={open === 'edit'} title={`Edit ${k.name}`} confirmLabel="Save" onCancel={() => setOpen(null)} onConfirm={() => !capBad && edit.mutate({ name, monthly_spend_cap_micros: capMicros(cap) }, close)}>
        <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
        <Field
          label="Monthly spend cap in US$"
          inputMode="decimal"
          value={cap}
          onChange={(e) => setCap(e.target.value)}
          aria-invalid={capBad}
          hint={capBad ? 'Enter an amount such as 25 or 2.50, or leave empty for no cap.' : 'Empty: no cap. Lowering it below this month\'s spend stops the key\'s spending.'}
        />
        <ErrorNotice error={edit.error} />
      </ConfirmDialog>

      <ConfirmDialog open={open === 'roll'} title={`Roll ${k.name}`} confirmLabel="Roll key" onCancel={() => setOpen(null)} onConfirm={() =>
          roll.mutate(grace, {
            onSuccess: (r) => {
              setOpen(null);
              onRolled(r);
            },
          })
        }>
        <p>A new key with the same scopes, cap and expiry is made. The old key keeps working for the grace period, then is refused.</p>
        <Select label="Grace period for the old key" value={grace} onChange={setGrace} options={GRACES} />
        <ErrorNotice error={roll.error} />
      </ConfirmDialog>

      <ConfirmDialog open={open === 'revoke'} title={`Revoke ${k.name}?`} confirmLabel="Revoke key" danger onCancel={() => setOpen(null)} onConfirm={() => revoke.mutate(undefined, close)}>
        <p>
          Requests with <code>{k.prefix}…</code> fail from the next one. This cannot be undone.
        </p>
        <ErrorNotice error={revoke.error} />
      </ConfirmDialog>
    </div>
  );
}
