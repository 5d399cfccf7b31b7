// Invite a user: email, name, role. The set-password link comes back once, in the response; it is
// shown here with a copy button and a warning, and is gone from the page once dismissed.
import { useState, type FormEvent } from 'react';
import { Field, Select } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { useInviteUser } from '../../data/users';
import { fieldError } from '../../lib/error-words';
import { LinkNotice } from './LinkNotice';
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
        <LinkNotice url={done.set_password_url} onDone={() => invite.reset()}>
          {done.user.email} was added as {done.user.role}. Give them this link to set their password
          {done.emailed ? ' (it was also emailed to them)' : ''}.
        </LinkNotice>
      )}
    </section>
  );
}
