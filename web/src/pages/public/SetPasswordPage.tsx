// /set-password?token=: a one-time link (an invitation, or a new owner from `account create`).
// Says whom it is for, takes the new password twice, and signs the person in. A used, unknown
// or expired link says so (410 invalid_link) with what to do.
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Field } from '../../components/controls';
import { ErrorNotice, Loading } from '../../components/states';
import { linkTargetQuery, useSetPassword } from '../../data/session';
import { HubError } from '../../lib/api';
import { AuthFrame } from './AuthFrame';
import { afterSignIn } from './session-cache';

export default function SetPasswordPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const target = useQuery(linkTargetQuery(token));
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const save = useSetPassword();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setMismatch(password !== again);
    if (password === again) save.mutate({ token, password }, { onSuccess: (s) => void navigate(afterSignIn(s, null), { replace: true }) });
  };

  const title = 'Set your password';
  if (!token) return <AuthFrame title={title}><ErrorNotice error={new Error('This address has no link token. Open the whole link you were given.')} /></AuthFrame>;
  if (target.isPending) return <AuthFrame title={title}><Loading what="Checking the link" /></AuthFrame>;
  if (target.error) {
    return (
      <AuthFrame title={title}>
        <ErrorNotice error={target.error} />
        {target.error instanceof HubError && target.error.status === 410 && (
          <p>
            Already set a password? <Link to="/sign-in">Sign in</Link>.
          </p>
        )}
      </AuthFrame>
    );
  }
  const t = target.data;
  return (
    <AuthFrame title={title}>
      <p>
        For <strong>{t.name ? `${t.name} (${t.email})` : t.email}</strong> in <strong>{t.account_name}</strong>. The link works once.
      </p>
      <form onSubmit={submit} aria-busy={save.isPending}>
        <input type="email" name="username" value={t.email} autoComplete="username" readOnly hidden />
        <Field label="New password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} required minLength={10} autoComplete="new-password" hint="At least 10 characters." />
        <Field label="New password again" type="password" value={again} onChange={(e) => setAgain(e.target.value)} required autoComplete="new-password" aria-invalid={mismatch || undefined} />
        {mismatch && <ErrorNotice error={new Error('The two passwords differ: type the same one twice.')} />}
        <ErrorNotice error={save.error} />
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Set password and sign in'}
          </button>
        </div>
      </form>
    </AuthFrame>
  );
}
