// /confirm-email?token=: the link emailed to a new address. Confirming is a button, not the page
// load (mail scanners open links), and works signed in or not; afterwards the person signs in with
// the new address. A used, replaced or expired link says so (410).
import { Link, useSearchParams } from 'react-router';
import { ErrorNotice } from '../../components/states';
import { useConfirmEmail } from '../../data/session';
import { AuthFrame } from './AuthFrame';

export default function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const confirm = useConfirmEmail();
  const title = 'Confirm your new email';
  if (!token) return <AuthFrame title={title}><ErrorNotice error={new Error('This address has no link token. Open the whole link from the email.')} /></AuthFrame>;
  if (confirm.isSuccess) {
    return (
      <AuthFrame title={title}>
        <div className="notice notice-ok" role="status">
          <p>
            Done: you now sign in to <strong>{confirm.data.account_name}</strong> with <strong>{confirm.data.email}</strong>.
          </p>
        </div>
        <p>
          <Link to="/sign-in">Go to the hub</Link>
        </p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title={title}>
      <p>Use this address to sign in from now on? Until you confirm, your old email still signs in.</p>
      <ErrorNotice error={confirm.error} />
      <div className="actions">
        <button type="button" disabled={confirm.isPending} onClick={() => confirm.mutate(token)}>
          {confirm.isPending ? 'Confirming…' : 'Confirm my new email'}
        </button>
      </div>
    </AuthFrame>
  );
}
