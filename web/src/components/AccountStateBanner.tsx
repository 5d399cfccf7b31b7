// The banner the shell shows on every page while the operator has made the account read-only: a
// suspension, or a plan that lapsed or ended. It says why, what still works and whom to ask; the
// server refuses the changes either way (hub/auth.ts), this only spares people the surprise.
import type { SessionAccount } from '../lib/session';

function why(account: SessionAccount): { title: string; next: string } | null {
  if (account.state === 'suspended') {
    return { title: 'This account is suspended.', next: 'To lift the suspension, contact the operator of this Switchboard.' };
  }
  if (account.subscription === 'lapsed') {
    return { title: "This account's plan has lapsed.", next: 'To renew it, contact the operator of this Switchboard.' };
  }
  if (account.subscription === 'ended') {
    return { title: "This account's plan has ended.", next: 'To start it again, contact the operator of this Switchboard.' };
  }
  return null;
}

export function AccountStateBanner({ account }: { account: SessionAccount | null }) {
  const w = account ? why(account) : null;
  if (!w) return null;
  return (
    <div className="notice notice-warn account-banner" role="status">
      <p>
        <strong>{w.title}</strong> It is read-only: you can look at everything in it, but nothing can be changed, started or sent.
      </p>
      <p>{w.next}</p>
    </div>
  );
}
