// Invite a user: email, name, role. The set-password link comes back once, in the response; it is
// shown here with a copy button and a warning, and is gone from the page once dismissed.
import { useState, type FormEvent } from 'react';
import { CopyButton, Field, Select } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { useInviteUser } from '../../data/users';
import { fieldError } from '../../lib/error-words';
import { ROLE_OPTIONS } from './types';

export function InviteForm() {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState('member');
  const invite = useInviteUser();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate(
      { email, role, ...(name.trim() ? { name } : {}) },
      {
        onSuccess: () => {
          setEmail('');
          setName('');
        },
      },
    );
  };
  const done = invite.data;
  return (
    <section className="card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite a user</h2>
      <form className="users-invite-form" onSubmit={submit}>
        <Field label="Email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" error={fieldError(invite.error, 'email')} />
        <Field label="Name (optional)" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" error={fieldError(invite.error, 'name')} />
        <Select label="Role" value={role} onChange={setRole} options={ROLE_OPTIONS} />
        <div className="field">
          <button type="submit" disabled={invite.isPending}>
            {invite.isPending ? 'Inviting…' : 'Invite'}
          </button>
        </div>
      </form>
      <ErrorNotice error={invite.error} />
      {done && (
        <div className="notice notice-warn" role="status">
          <p>
            {done.user.email} was added as {done.user.role}. Give them this link to set their password
            {done.emailed ? ' (it was also emailed to them)' : ''}. It works once, for 7 days, and will not be shown again.
          </p>
          <div className="users-invite-link">
            <code aria-label="Set-password link">{done.set_password_url}</code>
            <CopyButton text={done.set_password_url} label="Copy link" />
            <button type="button" className="button-secondary" onClick={() => invite.reset()}>
              Done
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
