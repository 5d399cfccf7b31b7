// A user's cells in the list: their role (a select that saves on change), their sign-in (a new
// password link, a new email: SignInActions.tsx) and a remove button that asks first. The server refuses demoting or removing the last owner and says why, under the
// control that asked.
import { useState } from 'react';
import { ConfirmDialog, Time } from '../../components/controls';
import type { Column } from '../../components/list';
import { ErrorNotice } from '../../components/states';
import { mayManageSignIn } from '@domain/hub';
import { useRemoveUser, useSetRole, type HubUser, type Invitation } from '../../data/users';
import type { Role } from '../../lib/session';
import { ChangeEmailButton, NewLinkButton } from './SignInActions';
import { ROLE_OPTIONS } from './types';

function RoleCell({ user }: { user: HubUser }) {
  const setRole = useSetRole(user.id);
  return (
    <>
      <select aria-label={`Role of ${user.email}`} value={setRole.isPending ? setRole.variables : user.role} disabled={setRole.isPending} onChange={(e) => setRole.mutate(e.target.value)}>
        {ROLE_OPTIONS.map(([value]) => (
          <option key={value} value={value}>
            {value}
          </option>
        ))}
      </select>
      <ErrorNotice error={setRole.error} />
    </>
  );
}

function RemoveCell({ user }: { user: HubUser }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useRemoveUser(user.id);
  const who = user.name ? `${user.name} <${user.email}>` : user.email;
  return (
    <>
      <button type="button" className="button-secondary" aria-label={`Remove ${user.email}`} disabled={remove.isPending} onClick={() => setConfirming(true)}>
        Remove
      </button>
      <ErrorNotice error={remove.error} />
      <ConfirmDialog
        open={confirming}
        title={`Remove ${who}?`}
        confirmLabel="Remove user"
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          remove.mutate();
        }}
      >
        <p>They are signed out at once and can no longer sign in to this account. What was assigned to them becomes unassigned.</p>
      </ConfirmDialog>
    </>
  );
}

/** The list's columns; `me` is the signed-in email (marked "you"), `myRole` what they may do. */
export function userColumns(me: string, myRole: Role, onLinkSent: (sent: Invitation) => void): Column<HubUser>[] {
  return [
    {
      header: 'User',
      cell: (u) => (
        <>
          {u.name && <div>{u.name}</div>}
          <div className={u.name ? 'muted' : undefined}>{u.email}</div>
          {u.email.toLowerCase() === me.toLowerCase() && <span className="badge">you</span>}
        </>
      ),
    },
    { header: 'Role', cell: (u) => <RoleCell user={u} /> },
    { header: 'Password', cell: (u) => (u.has_password ? 'Set' : <span className="muted">Not set yet</span>) },
    { header: 'Added', cell: (u) => <Time iso={u.created_at} /> },
    {
      header: 'Actions',
      cell: (u) => (
        <div className="users-actions">
          {mayManageSignIn(myRole, u.role) && (
            <>
              <NewLinkButton user={u} onSent={onLinkSent} />
              <ChangeEmailButton user={u} />
            </>
          )}
          <RemoveCell user={u} />
        </div>
      ),
    },
  ];
}
