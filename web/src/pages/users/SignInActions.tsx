// A user's sign-in, managed by an owner or admin (owners for anyone, admins not for owners: the
// server's rule, @domain/hub mayManageSignIn): send a new set-password link (asked first; the link
// comes back once and the page shows it) and change their email at once (for a hub without real
// email, or a person who lost their old mailbox).
import { useState } from 'react';
import { ConfirmDialog, Field } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { useSendSetPasswordLink, useSetUserEmail, type HubUser, type Invitation } from '../../data/users';

const nameOf = (u: HubUser) => (u.name ? `${u.name} <${u.email}>` : u.email);

export function NewLinkButton({ user, onSent }: { user: HubUser; onSent: (sent: Invitation) => void }) {
  const [confirming, setConfirming] = useState(false);
  const send = useSendSetPasswordLink(user.id);
  return (
    <>
      <button type="button" className="button-secondary" aria-label={`New password link for ${user.email}`} disabled={send.isPending} onClick={() => setConfirming(true)}>
        New password link
      </button>
      <ErrorNotice error={send.error} />
      <ConfirmDialog
        open={confirming}
        title={`Send ${nameOf(user)} a new set-password link?`}
        confirmLabel="Make the link"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          send.mutate(undefined, { onSuccess: onSent });
        }}
      >
        <p>Any earlier link they have not used stops working. Their current password keeps working until they use the new link.</p>
      </ConfirmDialog>
    </>
  );
}

export function ChangeEmailButton({ user }: { user: HubUser }) {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const save = useSetUserEmail(user.id);
  return (
    <>
      <button type="button" className="button-secondary" aria-label={`Change email of ${user.email}`} disabled={save.isPending} onClick={() => { setEmail(user.email); setOpen(true); }}>
        Change email
      </button>
      <ErrorNotice error={save.error} />
      <ConfirmDialog
        open={open}
        title={`Change the email of ${nameOf(user)}`}
        confirmLabel="Change email"
        onCancel={() => setOpen(false)}
        onConfirm={() => {
          setOpen(false);
          if (email.trim() && email.trim() !== user.email) save.mutate(email.trim());
        }}
      >
        <p>They sign in with the new address from now on. Nothing is sent to confirm it, so check it is theirs.</p>
        <Field label="New email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
      </ConfirmDialog>
    </>
  );
}
