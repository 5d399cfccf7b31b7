// Each key's spend in the month against its monthly cap (owners and admins only: the server
// sends no keys to a member). A meter shows how much of the cap is used.
import { StatusBadge } from '../../components/controls';
import { Table, type Column } from '../../components/list';
import type { KeySpend } from '../../data/usage';
import { dollars } from './model';

/** The share of its cap a key has spent (0–1); null for a key without a cap. */
const shareOf = (k: KeySpend) => (k.monthly_spend_cap_micros ? Math.min(1, k.spent_micros / k.monthly_spend_cap_micros) : null);

const COLUMNS: Column<KeySpend>[] = [
  {
    header: 'Key',
    cell: (k) => (
      <>
        {k.name} {k.revoked && <StatusBadge status="revoked" />}
      </>
    ),
  },
  { header: 'Prefix', cell: (k) => <code>{k.prefix}</code> },
  { header: 'Spent', cell: (k) => dollars(k.spent_micros) },
  { header: 'Monthly cap', cell: (k) => (k.monthly_spend_cap_micros === null ? <span className="muted">No cap</span> : dollars(k.monthly_spend_cap_micros)) },
  {
    header: 'Of the cap',
    cell: (k) => {
      const share = shareOf(k);
      if (share === null) return <span className="muted">—</span>;
      return (
        <>
          <meter min={0} max={1} value={share} aria-label={`${k.name}: ${Math.round(share * 100)}% of its cap`} /> {Math.round(share * 100)}%
        </>
      );
    },
  },
];

export function KeySpendTable({ keys }: { keys: KeySpend[] }) {
  return (
    <section className="usage-keys" aria-labelledby="usage-keys-title">
      <h2 id="usage-keys-title">Spend per key</h2>
      {keys.length === 0 ? (
        <p className="state state-empty">The account has no keys.</p>
      ) : (
        <Table columns={COLUMNS} rows={keys} caption="Spend per key this month" />
      )}
    </section>
  );
}
