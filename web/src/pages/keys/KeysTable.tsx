// The account's keys: prefix, scopes, creator, dates, cap against this month's spend, state and
// the row's actions. A rolled key names its successor by prefix. One answer, no pages: <Table>.
import { StatusBadge, Time } from '../../components/controls';
import { Table, type Column } from '../../components/list';
import type { HubKey, Rolled } from '../../data/api-keys';
import { dollars } from '../../lib/money';
import { KeyActions } from './KeyActions';
import { who } from './types';

function columns(byId: Map<string, HubKey>, onRolled: (r: Rolled) => void): Column<HubKey>[] {
  return [
    {
      header: 'Name and key',
      rowHeader: true,
      cell: (k) => (
        <>
          {k.name}
          <small className="hint">
            <code>{k.prefix}…</code>
          </small>
        </>
      ),
    },
    {
      header: 'State',
      cell: (k) => (
        <>
          <StatusBadge status={k.state} />
          {k.replaced_by && (
            <small className="hint">
              replaced by <code>{byId.get(k.replaced_by)?.prefix ?? k.replaced_by}…</code>
            </small>
          )}
          {k.revoked_at && (
            <small className="hint">
              <Time iso={k.revoked_at} />
            </small>
          )}
        </>
      ),
    },
    {
      header: 'Scopes',
      cell: (k) =>
        k.scopes.length ? (
          k.scopes.map((s) => (
            <code key={s} className="keys-scope">
              {s}
            </code>
          ))
        ) : (
          <span className="muted">none</span>
        ),
    },
    {
      header: 'Created',
      cell: (k) => (
        <>
          <Time iso={k.created_at} />
          <small className="hint" title={who(k)}>
            by {k.created_by.name || k.created_by.email}
          </small>
        </>
      ),
    },
    { header: 'Last used', cell: (k) => (k.last_used_at ? <Time iso={k.last_used_at} /> : <span className="muted">never</span>) },
    { header: 'Expires', cell: (k) => (k.expires_at ? <Time iso={k.expires_at} /> : <span className="muted">never</span>) },
    {
      header: 'Spent this month',
      className: 'keys-spend',
      cell: (k) => (
        <>
          {dollars(k.spent_this_month_micros)}
          <small className="hint">{k.monthly_spend_cap_micros === null ? 'no cap' : `cap ${dollars(k.monthly_spend_cap_micros)}`}</small>
        </>
      ),
    },
    { header: 'Actions', cell: (k) => <KeyActions k={k} onRolled={onRolled} /> },
  ];
}

export function KeysTable({ keys, onRolled }: { keys: HubKey[]; onRolled: (r: Rolled) => void }) {
  const byId = new Map(keys.map((k) => [k.id, k]));
  return (
    <div className="keys-table">
      <Table columns={columns(byId, onRolled)} rows={keys} caption="API keys of this account" />
    </div>
  );
}
