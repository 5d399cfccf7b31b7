// Your email. With real email: the new address gets a link, and the change happens when it is
// used (until then the old address signs in; a pending change is shown). Without real email a new
// address cannot be confirmed, so the page says an owner or admin changes it on Users.
import { useState, type FormEvent } from 'react';
import { Field, Time } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { useRequestEmailChange, type Profile } from '../../data/profile';

export function EmailForm({ profile: p }: { profile: Profile }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const ask = useRequestEmailChange();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    ask.mutate(
      { email: email.trim(), current_password: password },
      {
        onSuccess: () => {
          setEmail('');
          setPassword('');
        },
        onError: () => setPassword(''),
      },
    );
  };
  return (
    <section className="card" aria-labelledby="profile-email">
      <h2 id="profile-email">Email</h2>
      <p>
        You sign in with <strong>{p.email}</strong>.
      </p>
      {p.pending_email && (
        <p className="notice notice-warn" role="status">
          Waiting for you to open the link we emailed to <strong>{p.pending_email}</strong> (it works until <Time iso={p.pending_email_expires_at} />). Until then you sign in
          with {p.email}.
        </p>
      )}
      {!p.sends_email ? (
        <p className="muted">This hub cannot send email yet, so a new address cannot be confirmed here. An owner or admin of the account can change your email on the Users screen.</p>
      ) : (
        <form onSubmit={submit} className="profile-form">
          <Field label="New email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required maxLength={320} autoComplete="email" hint="We email a link to it; your email changes when you open it." />
          <Field label="Current password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} required autoComplete="current-password" />
          <ErrorNotice error={ask.error} />
          <div className="actions">
            <button type="submit" disabled={ask.isPending}>
              {ask.isPending ? 'Sending…' : 'Send a confirmation link'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
