// Usage (Account): a month of billed spend — the chart by day with its text alternative, totals by
// feature, the balance, and for owners and admins each key's spend against its cap. The month is
// in the URL (?month=YYYY-MM) so a view can be bookmarked.
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Select } from '../../components/controls';
import { Table, type Column } from '../../components/list';
import { QueryState } from '../../components/states';
import { usageQuery, type HubUsage } from '../../data/usage';
import { KeySpendTable } from './KeySpendTable';
import { featureName } from '../../lib/features';
import { dollars, monthName, recentMonths } from './model';
import { DaysTable, UsageChart } from './UsageChart';
import './usage.css';
import { PageHeader } from '../../components/PageHeader';

const utcToday = () => new Date().toISOString().slice(0, 10);

type FeatureSpend = HubUsage['by_feature'][number];
const FEATURE_COLUMNS: Column<FeatureSpend>[] = [
  { header: 'Feature', cell: (f) => featureName(f.feature) },
  { header: 'Billed', cell: (f) => dollars(f.micros) },
];

function summaryOf(u: HubUsage, today: string): string {
  const todays = u.by_day.find((d) => d.date === today);
  const top = u.by_day.reduce<{ date: string; micros: number } | null>((a, d) => (d.micros > (a?.micros ?? 0) ? d : a), null);
  const parts = [`Spend by day in ${monthName(u.month)}: ${dollars(u.total_micros)} in all`];
  if (todays) parts.push(`today (${today}) ${dollars(todays.micros)}`);
  if (top) parts.push(`highest ${dollars(top.micros)} on ${top.date}`);
  return `${parts.join('; ')}.`;
}

export default function UsagePage() {
  const [params, setParams] = useSearchParams();
  const today = utcToday();
  const month = params.get('month') ?? today.slice(0, 7);
  const q = useQuery(usageQuery(month));
  const months = recentMonths(today.slice(0, 7));
  const options = (months.includes(month) ? months : [month, ...months]).map((m) => [m, monthName(m)] as const);
  return (
    <>
      <PageHeader title="Usage" />
      <div className="filters">
        <Select label="Month" value={month} onChange={(m) => setParams(m === today.slice(0, 7) ? {} : { month: m })} options={options} />
      </div>
      <QueryState q={q}>
        {(u) => (
          <>
            <dl className="usage-totals">
              <div className="card">
                <dt>Billed in {monthName(u.month)}</dt>
                <dd data-testid="usage-total">{dollars(u.total_micros)}</dd>
              </div>
              <div className="card">
                <dt>Balance (credit left for AI and texts)</dt>
                <dd>{dollars(u.balance_micros)}</dd>
              </div>
            </dl>
            <h2>By day</h2>
            {u.by_day.length ? (
              <>
                <UsageChart days={u.by_day} summary={summaryOf(u, today)} />
                <DaysTable days={u.by_day} today={today} />
              </>
            ) : (
              <p className="state state-empty">This month has not started yet.</p>
            )}
            <h2>By feature</h2>
            {u.by_feature.length ? (
              <Table columns={FEATURE_COLUMNS} rows={u.by_feature} rowKey={(f) => f.feature} caption="Billed by feature, biggest first" />
            ) : (
              <p className="state state-empty">Nothing billed in this month.</p>
            )}
            {u.keys && <KeySpendTable keys={u.keys} />}
          </>
        )}
      </QueryState>
    </>
  );
}
