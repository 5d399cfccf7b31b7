// Account → Users (owners and admins): invite, change roles, send a new set-password link, change
// an email, remove. The list is one answer (no pages), oldest first.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Table } from '../../components/list';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/states';
import { userListQuery, type Invitation } from '../../data/users';
import { useSession } from '../../lib/session';
import { InviteForm } from './InviteForm';
import { LinkNotice } from './LinkNotice';
import { userColumns } from './UserCells';
import './users.css';

export default function UsersPage() {
  const session = useSession();
  const q = useQuery(userListQuery());
  // A new set-password link, shown once above the list until Done.
  const [sent, setSent] = useState<Invitation | null>(null);
  return (
    <>
      <PageHeader title="Users" />
      <InviteForm />
      <h2>People in this account</h2>
      {sent && (
        <LinkNotice url={sent.set_password_url} onDone={() => setSent(null)}>
          A new set-password link for {sent.user.email}: give it to them{sent.emailed ? ' (it was also emailed to them)' : ''}.
        </LinkNotice>
      )}
      <QueryState q={q} isEmpty={(d) => d.data.length === 0} empty="No users yet.">
        {(d) => (
          <div className="users-table">
            <Table columns={userColumns(session.email, session.account?.role ?? 'member', setSent)} rows={d.data} caption="People in this account, oldest first" />
          </div>
        )}
      </QueryState>
    </>
  );
}
