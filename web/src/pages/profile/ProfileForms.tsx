// Your name, and your password (the current one again, the new one twice). A wrong current
// password is the server's words (it counts as a failed sign-in, so the field is cleared).
import { useState, type FormEvent } from 'react';
import { Field } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { useChangePassword, useRename } from '../../data/profile';

export function NameForm({ name: saved }: { name: string }) {
  const [name, setName] = useState(saved);
  const rename = useRename();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    rename.mutate(name.trim());
  };
  return (
    <section className="card" aria-labelledby="profile-name">
      <h2 id="profile-name">Name</h2>
      <form onSubmit={submit} className="profile-form">
        <Field label="Your name" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} autoComplete="name" hint="How others in the account see you. May be empty." />
        <ErrorNotice error={rename.error} />
        {rename.isSuccess && <p className="notice notice-ok" role="status">Your name is saved.</p>}
        <div className="actions">
          <button type="submit" disabled={rename.isPending || name.trim() === saved}>
            {rename.isPending ? 'Saving…' : 'Save name'}
          </button>
        </div>
      </form>
    </section>
  );
}

export function PasswordForm({ email }: { email: string }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const change = useChangePassword();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setMismatch(next !== again);
    if (next !== again) return;
    change.mutate(
      { current_password: current, new_password: next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
          setAgain('');
        },
        onError: () => setCurrent(''),
      },
    );
  };
  const ended = change.data?.other_sessions_ended ?? 0;
  return (
    <section className="card" aria-labelledby="profile-password">
      <h2 id="profile-password">Password</h2>
      <form onSubmit={submit} className="profile-form">
        <input type="email" name="username" value={email} autoComplete="username" readOnly hidden />
        <Field label="Current password" type="password" value={current} onChange={(e) => setCurrent(e.target.value)} required autoComplete="current-password" />
        <Field label="New password" type="password" value={next} onChange={(e) => setNext(e.target.value)} required minLength={10} autoComplete="new-password" hint="At least 10 characters." />
        <Field label="New password again" type="password" value={again} onChange={(e) => setAgain(e.target.value)} required autoComplete="new-password" aria-invalid={mismatch || undefined} />
        {mismatch && <ErrorNotice error={new Error('The two new passwords differ: type the same one twice.')} />}
        <ErrorNotice error={change.error} />
        {change.isSuccess && (
          <p className="notice notice-ok" role="status">
            Your password is changed. {ended === 0 ? 'You were signed in nowhere else.' : `You were signed out everywhere else (${ended} ${ended === 1 ? 'session' : 'sessions'}); this one stays signed in.`}
          </p>
        )}
        <div className="actions">
          <button type="submit" disabled={change.isPending}>
            {change.isPending ? 'Changing…' : 'Change password'}
          </button>
        </div>
      </form>
    </section>
  );
}
