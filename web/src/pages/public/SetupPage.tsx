// /setup: the first-run page (the store has no account yet). Creates the first account and its
// owner and signs the owner in. From another machine, behind a proxy, or under any name but
// localhost / 127.0.0.1 / [::1], the server asks for the set-up token `switchboard serve` wrote to
// <data dir>/setup-token;
// the form shows that field only then.
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useNavigate } from 'react-router';
import { Field } from '../../components/controls';
import { ErrorNotice, Loading } from '../../components/states';
import { setupQuery, useSetUp } from '../../data/session';
import { HubError } from '../../lib/api';
import { AuthFrame } from './AuthFrame';

export default function SetupPage() {
  const navigate = useNavigate();
  const state = useQuery(setupQuery());
  const [form, setForm] = useState({ account_name: '', name: '', email: '', password: '', setup_token: '' });
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const setUp = useSetUp();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const { setup_token, ...rest } = form;
    setUp.mutate(state.data?.token_required ? { ...rest, setup_token } : rest, { onSuccess: () => void navigate('/', { replace: true }) });
  };
  // The field the server refused (its `param`) is marked invalid for screen readers too.
  const bad = (param: string) => (setUp.error instanceof HubError && setUp.error.param === param) || undefined;

  if (state.isPending) return <AuthFrame title="Set up Switchboard"><Loading what="Checking this hub" /></AuthFrame>;
  if (state.error) return <AuthFrame title="Set up Switchboard"><ErrorNotice error={state.error} /></AuthFrame>;
  if (!state.data.needed) return <Navigate to="/sign-in" replace />;
  return (
    <AuthFrame title="Set up Switchboard">
      <p>This hub has no account yet. Create the first account and its owner: you.</p>
      <form onSubmit={submit} aria-busy={setUp.isPending} noValidate={false}>
        <Field label="Account name" value={form.account_name} onChange={set('account_name')} aria-invalid={bad('account_name')} required maxLength={200} autoComplete="organization" />
        <Field label="Your name" value={form.name} onChange={set('name')} maxLength={200} autoComplete="name" />
        <Field label="Email" type="email" value={form.email} onChange={set('email')} aria-invalid={bad('email')} required autoComplete="username" />
        <Field label="Password" type="password" value={form.password} onChange={set('password')} aria-invalid={bad('password')} required minLength={10} autoComplete="new-password" hint="At least 10 characters." />
        {state.data.token_required && (
          <Field
            label="Set-up token"
            value={form.setup_token}
            onChange={set('setup_token')}
            aria-invalid={bad('setup_token')}
            required
            autoComplete="off"
            spellCheck={false}
            hint="This page is not open as localhost or 127.0.0.1 on the server's own machine: give the token from the file setup-token in the server's data directory (also printed on the terminal that started it)."
          />
        )}
        <ErrorNotice error={setUp.error} />
        <div className="actions">
          <button type="submit" disabled={setUp.isPending}>
            {setUp.isPending ? 'Creating…' : 'Create account'}
          </button>
        </div>
      </form>
    </AuthFrame>
  );
}
