// Account → Audit log (owners and admins): who changed what and when, newest first, paged. The
// filters live in the URL (?action=…&actor=…, useListQuery), so a filtered view can be bookmarked
// and reloaded; changing one starts again at the first page.
import { useQuery } from '@tanstack/react-query';
import { Select, Time } from '../../components/controls';
import { ListTable, useListQuery, type Column } from '../../components/list';
import { PageHeader } from '../../components/PageHeader';
import { auditListQuery, type AuditEntry } from '../../data/audit';
import { userListQuery } from '../../data/users';
import { Detail } from './Detail';
import { AUDIT_ACTIONS } from '@domain/audit';
import './audit.css';

const COLUMNS: Column<AuditEntry>[] = [
  { header: 'Time', cell: (e) => <Time iso={e.at} /> },
  { header: 'Actor', cell: (e) => e.actor.label },
  { header: 'Action', cell: (e) => <code>{e.action}</code> },
  {
    header: 'Object',
    className: 'audit-object',
    cell: (e) => (
      <>
        {e.object.kind} <code>{e.object.id}</code>
      </>
    ),
  },
  { header: 'Detail', className: 'audit-detail', cell: (e) => <Detail detail={e.detail} /> },
];

export default function AuditPage() {
  const list = useListQuery({ filters: ['action', 'actor'], query: auditListQuery });
  const { filters, setFilter } = list;
  const users = useQuery(userListQuery());
  const actors: [string, string][] = [['', 'Anyone'], ['operator', 'The operator (CLI)'], ...(users.data?.data ?? []).map((u): [string, string] => [u.id, u.name ? `${u.name} <${u.email}>` : u.email])];
  if (filters.actor && !actors.some(([id]) => id === filters.actor)) actors.push([filters.actor, 'A removed user']);
  return (
    <>
      <PageHeader title="Audit log" />
      <div className="filters">
        <Select label="Action" value={filters.action} onChange={(v) => setFilter('action', v)} options={[['', 'Every action'], ...AUDIT_ACTIONS.map((a): [string, string] => [a, a])]} />
        <Select label="Actor" value={filters.actor} onChange={(v) => setFilter('actor', v)} options={actors} />
      </div>
      <div className="audit-table">
        <ListTable
          list={list}
          columns={COLUMNS}
         
          caption="Audit log, newest first"
          label="Audit log"
          empty={list.filtered ? 'No entries match these filters.' : 'Nothing has been changed yet.'}
        />
      </div>
    </>
  );
}
