// /forgot-password: with real email, takes an address and says a link is on its way if the address
// is a user's (the same words whether or not it is: the page must not tell a stranger who has an
// account here). Without real email (the development outbox) nothing could arrive, so it says to
// ask an owner or admin of the account for a new set-password link instead.
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Field } from '../../components/controls';
import { ErrorNotice, Loading } from '../../components/states';
import { forgotQuery, useForgotPassword } from '../../data/session';
import { AuthFrame } from './AuthFrame';

const ASK_AN_OWNER = 'This hub cannot send email yet. Ask an owner or admin of your account for a new set-password link: they can make one on the Users screen.';

export default function ForgotPasswordPage() {
  const state = useQuery(forgotQuery());
  const [email, setEmail] = useState('');
  const ask = useForgotPassword();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    ask.mutate(email.trim());
  };
  const title = 'Forgot your password?';
  const back = (
    <p>
      <Link to="/sign-in">Back to sign in</Link>
    </p>
  );
  if (state.isPending) return <AuthFrame title={title}><Loading /></AuthFrame>;
  if (state.error) return <AuthFrame title={title}><ErrorNotice error={state.error} />{back}</AuthFrame>;
  if (!state.data.sends_email || ask.data?.sends_email === false) {
    return (
      <AuthFrame title={title}>
        <p>{ASK_AN_OWNER}</p>
        {back}
      </AuthFrame>
    );
  }
  if (ask.isSuccess) {
    return (
      <AuthFrame title={title}>
        <div className="notice notice-ok" role="status">
          <p>
            If <strong>{ask.variables}</strong> is the email of someone in an account here, a link to set a new password is on its way to it.
            It works once, for 7 days. Nothing there after a few minutes? Check the spam folder, or ask an owner or admin of your account.
          </p>
        </div>
        {back}
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title={title}>
      <p>Type the email you sign in with. We will email you a link to set a new password.</p>
      <form onSubmit={submit} aria-busy={ask.isPending}>
        <Field label="Email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required maxLength={320} autoComplete="username" autoFocus />
        <ErrorNotice error={ask.error} />
        <div className="actions">
          <button type="submit" disabled={ask.isPending}>
            {ask.isPending ? 'Sending…' : 'Email me a link'}
          </button>
        </div>
      </form>
      {back}
    </AuthFrame>
  );
}
