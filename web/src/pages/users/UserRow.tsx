// One user in the list: their role (a select that saves on change) and a remove button that asks
// first. The server refuses demoting or removing the last owner and says why; that shows here.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog, Time } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { api } from '../../lib/api';
import { ROLE_OPTIONS, USERS_KEY, type HubUser } from './types';

export function UserRow({ user, isMe }: { user: HubUser; isMe: boolean }) {
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: USERS_KEY });
  const setRole = useMutation({ mutationFn: (role: string) => api.patch<HubUser>(`/hub/api/users/${user.id}`, { role }), onSettled: refresh });
  const remove = useMutation({ mutationFn: () => api.delete(`/hub/api/users/${user.id}`), onSettled: refresh });
  const who = user.name ? `${user.name} <${user.email}>` : user.email;
  return (
    <tr>
      <td>
        {user.name && <div>{user.name}</div>}
        <div className={user.name ? 'muted' : undefined}>{user.email}</div>
        {isMe && <span className="badge">you</span>}
        <ErrorNotice error={setRole.error ?? remove.error} />
      </td>
      <td>
        <select aria-label={`Role of ${user.email}`} value={setRole.isPending ? setRole.variables : user.role} disabled={setRole.isPending} onChange={(e) => setRole.mutate(e.target.value)}>
          {ROLE_OPTIONS.map(([value]) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </td>
      <td>{user.has_password ? 'Set' : <span className="muted">Not set yet</span>}</td>
      <td>
        <Time iso={user.created_at} />
      </td>
      <td>
        <button type="button" className="button-secondary" aria-label={`Remove ${user.email}`} disabled={remove.isPending} onClick={() => setConfirming(true)}>
          Remove
        </button>
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
      </td>
    </tr>
  );
}
