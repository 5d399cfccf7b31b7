// What the operator sets (`switchboard account set`): shown, never edited here.
import { StatusBadge, Time } from '../../components/controls';
import type { Settings } from '../../data/settings';

const limit = (v: number | null) => (v === null ? 'by contract' : v.toLocaleString());

export function OperatorFacts({ account }: { account: Settings['account'] }) {
  return (
    <section className="card" aria-labelledby="plan-heading">
      <h2 id="plan-heading">Plan and limits</h2>
      <p className="muted">Set by the operator of this Switchboard; ask them to change these.</p>
      <dl className="facts">
        <dt>Tier</dt>
        <dd>{account.tier}</dd>
        <dt>State</dt>
        <dd>
          <StatusBadge status={account.state} />
        </dd>
        <dt>Subscription</dt>
        <dd>
          <StatusBadge status={account.subscription} />
        </dd>
        <dt>API open</dt>
        <dd>{account.api_open ? 'Yes' : 'No'}</dd>
        <dt>Requests per minute per key</dt>
        <dd>{limit(account.limits.requests_per_minute)}</dd>
        <dt>Run starts per minute</dt>
        <dd>{limit(account.limits.run_starts_per_minute)}</dd>
        <dt>Concurrent runs</dt>
        <dd>{limit(account.limits.concurrent_runs)}</dd>
        <dt>Account created</dt>
        <dd>
          <Time iso={account.created_at} />
        </dd>
      </dl>
    </section>
  );
}
