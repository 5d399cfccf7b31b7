// The account's keys: prefix, scopes, creator, dates, cap against this month's spend, state and
// the row's actions. A rolled key names its successor by prefix.
import { StatusBadge, Time } from '../../components/controls';
import { KeyActions } from './KeyActions';
import { dollars } from '../../lib/money';
import { who, type HubKey, type Rolled } from './types';

export function KeysTable({ keys, onRolled }: { keys: HubKey[]; onRolled: (r: Rolled) => void }) {
  const byId = new Map(keys.map((k) => [k.id, k]));
  return (
    <div className="table-wrap">
      <table className="keys-table">
        <caption className="keys-caption">API keys of this account</caption>
        <thead>
          <tr>
            <th scope="col">Name and key</th>
            <th scope="col">State</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">Spent this month</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.id}>
              <th scope="row">
                {k.name}
                <small className="hint">
                  <code>{k.prefix}…</code>
                </small>
              </th>
              <td>
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
              </td>
              <td>{k.scopes.length ? k.scopes.map((s) => <code key={s} className="scope">{s}</code>) : <span className="muted">none</span>}</td>
              <td>
                <Time iso={k.created_at} />
                <small className="hint" title={who(k)}>
                  by {k.created_by.name || k.created_by.email}
                </small>
              </td>
              <td>{k.last_used_at ? <Time iso={k.last_used_at} /> : <span className="muted">never</span>}</td>
              <td>{k.expires_at ? <Time iso={k.expires_at} /> : <span className="muted">never</span>}</td>
              <td className="spend">
                {dollars(k.spent_this_month_micros)}
                <small className="hint">{k.monthly_spend_cap_micros === null ? 'no cap' : `cap ${dollars(k.monthly_spend_cap_micros)}`}</small>
              </td>
              <td>
                <KeyActions k={k} onRolled={onRolled} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
