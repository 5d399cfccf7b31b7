// Each key's spend in the month against its monthly cap (owners and admins only: the server
// sends no keys to a member). A meter shows how much of the cap is used.
import { StatusBadge } from '../../components/controls';
import { dollars, type KeySpend } from './model';

export function KeySpendTable({ keys }: { keys: KeySpend[] }) {
  return (
    <>
      <h2>Spend per key</h2>
      {keys.length === 0 ? (
        <p className="state state-empty">The account has no keys.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Prefix</th>
              <th scope="col">Spent</th>
              <th scope="col">Monthly cap</th>
              <th scope="col">Of the cap</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => {
              const cap = k.monthly_spend_cap_micros;
              const share = cap ? Math.min(1, k.spent_micros / cap) : null;
              return (
                <tr key={k.id}>
                  <td>
                    {k.name} {k.revoked && <StatusBadge status="revoked" />}
                  </td>
                  <td>
                    <code>{k.prefix}</code>
                  </td>
                  <td>{dollars(k.spent_micros)}</td>
                  <td>{cap === null ? <span className="muted">No cap</span> : dollars(cap)}</td>
                  <td>
                    {share === null ? (
                      <span className="muted">—</span>
                    ) : (
                      <>
                        <meter min={0} max={1} value={share} aria-label={`${k.name}: ${Math.round(share * 100)}% of its cap`} />{' '}
                        {Math.round(share * 100)}%
                      </>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </>
  );
}
