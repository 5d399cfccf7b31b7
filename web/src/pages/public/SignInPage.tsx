// /sign-in (?next=): email and password. A hub that still needs its first-run set-up sends the
// visitor to /setup instead (so a fresh server's / leads there); someone already signed in goes on.
import { useEffect, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Field } from '../../components/controls';
import { ErrorNotice, Loading } from '../../components/states';
import { forgetAccountData, setupQuery, useSignIn } from '../../data/session';
import { useSessionQuery } from '../../lib/session';
import { AuthFrame } from './AuthFrame';
import { afterSignIn } from './session-cache';

export default function SignInPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = params.get('next');
  const setup = useQuery(setupQuery());
  const session = useSessionQuery();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useSignIn();
  // Whoever was signed in here before: what they read is dropped (the shell is closed by now).
  const client = useQueryClient();
  useEffect(() => forgetAccountData(client), [client]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    signIn.mutate(
      { email, password },
      { onSuccess: (s) => void navigate(afterSignIn(s, next), { replace: true }), onError: () => setPassword('') },
    );
  };

  if (setup.isPending || session.isPending) return <AuthFrame title="Sign in"><Loading /></AuthFrame>;
  if (setup.data?.needed) return <Navigate to="/setup" replace />;
  if (session.data && !signIn.isPending) return <Navigate to={afterSignIn(session.data, next)} replace />;
  return (
    <AuthFrame title="Sign in">
      {/* A failed set-up check is no reason to keep someone from signing in: shown, not blocking. */}
      <ErrorNotice error={setup.error ?? session.error} />
      <form onSubmit={submit} aria-busy={signIn.isPending}>
        <Field label="Email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="username" autoFocus />
        <Field label="Password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} required autoComplete="current-password" />
        <ErrorNotice error={signIn.error} />
        <div className="actions">
          <button type="submit" disabled={signIn.isPending}>
            {signIn.isPending ? 'Signing in…' : 'Sign in'}
          </button>
        </div>
      </form>
      <p>
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
    </AuthFrame>
  );
}
