// /accounts (?next=): the account picker, for someone whose email and password open several
// accounts (and to switch later). Picking one makes the session act in it. When the account the
// session was in has been closed, it says so here.
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Empty, ErrorNotice, Loading } from '../../components/states';
import { usePickAccount } from '../../data/session';
import { useSessionQuery } from '../../lib/session';
import { AuthFrame } from './AuthFrame';
import { safeNext } from './session-cache';

export default function AccountsPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const session = useSessionQuery();
  const pick = usePickAccount();

  if (session.isPending) return <AuthFrame title="Choose an account"><Loading what="Checking your session" /></AuthFrame>;
  if (session.error) return <AuthFrame title="Choose an account"><ErrorNotice error={session.error} /></AuthFrame>;
  if (!session.data) return <Navigate to={`/sign-in?next=${encodeURIComponent(`/accounts${params.size ? `?${params}` : ''}`)}`} replace />;
  const s = session.data;
  return (
    <AuthFrame title="Choose an account">
      {s.closed_account && (
        <div className="notice notice-warn" role="status">
          <p>
            The account <strong>{s.closed_account}</strong> has been closed, so you can no longer work in it.
          </p>
        </div>
      )}
      <p>
        Signed in as <strong>{s.email}</strong>. Which account do you want to work in?
      </p>
      {s.accounts.length === 0 ? (
        <Empty>None of your accounts is open any more. Ask the operator.</Empty>
      ) : (
        <ul className="account-list" aria-busy={pick.isPending}>
          {s.accounts.map((a) => (
            <li key={a.account_id}>
              <button
                type="button"
                className={s.account?.account_id === a.account_id ? undefined : 'button-secondary'}
                aria-current={s.account?.account_id === a.account_id ? 'true' : undefined}
                disabled={pick.isPending}
                onClick={() => pick.mutate(a.account_id, { onSuccess: () => void navigate(next, { replace: true }) })}
              >
                <span>{a.name}</span>
                <span className="role">{a.role}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorNotice error={pick.error} />
    </AuthFrame>
  );
}
