// Account → Users (owners and admins): invite, change roles, remove. The list is one answer (no
// pages), oldest first.
import { useQuery } from '@tanstack/react-query';
import { Table } from '../../components/list';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/states';
import { userListQuery } from '../../data/users';
import { useSession } from '../../lib/session';
import { InviteForm } from './InviteForm';
import { userColumns } from './UserCells';
import './users.css';

export default function UsersPage() {
  const session = useSession();
  const q = useQuery(userListQuery());
  return (
    <>
      <PageHeader title="Users" />
      <InviteForm />
      <h2>People in this account</h2>
      <QueryState q={q} isEmpty={(d) => d.data.length === 0} empty="No users yet.">
        {(d) => (
          <div className="users-table">
            <Table columns={userColumns(session.email)} rows={d.data} caption="People in this account, oldest first" />
          </div>
        )}
      </QueryState>
    </>
  );
}
