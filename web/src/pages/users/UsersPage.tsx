// Account → Users (owners and admins): invite, change roles, remove.
import { useQuery } from '@tanstack/react-query';
import { QueryState } from '../../components/states';
import { api } from '../../lib/api';
import { useSession } from '../../lib/session';
import { InviteForm } from './InviteForm';
import { UserRow } from './UserRow';
import { USERS_KEY, type HubUser } from './types';
import './users.css';
import { PageHeader } from '../../components/PageHeader';

export default function UsersPage() {
  const session = useSession();
  const q = useQuery({ queryKey: USERS_KEY, queryFn: () => api.get<{ data: HubUser[] }>('/hub/api/users') });
  return (
    <>
      <PageHeader title="Users" />
      <InviteForm />
      <h2>People in this account</h2>
      <QueryState q={q} isEmpty={(d) => d.data.length === 0} empty="No users yet.">
        {(d) => (
          <table className="users-table">
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Role</th>
                <th scope="col">Password</th>
                <th scope="col">Added</th>
                <th scope="col">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody>
              {d.data.map((u) => (
                <UserRow key={u.id} user={u} isMe={u.email.toLowerCase() === session.email.toLowerCase()} />
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </>
  );
}
