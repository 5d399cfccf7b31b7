// Account → Audit log (owners and admins): who changed what and when, newest first, paged, each
// entry a sentence with links to what still exists (sentences.ts), its raw detail behind Details. The
// filters live in the URL (?action=…&actor=…, useListQuery), so a filtered view can be bookmarked
// and reloaded; changing one starts again at the first page.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Select } from '../../components/controls';
import { ListTable, useListQuery, type Column } from '../../components/list';
import { PageHeader } from '../../components/PageHeader';
import { auditListQuery, type AuditEntry } from '../../data/audit';
import { userListQuery } from '../../data/users';
import { whenWords } from '../../lib/when';
import { Detail } from './Detail';
import { AUDIT_WORDS, auditSentence } from './sentences';
import { AUDIT_ACTIONS } from '@domain/audit';
import './audit.css';

const COLUMNS: Column<AuditEntry>[] = [
  {
    header: 'When',
    className: 'audit-when',
    cell: (e) => (
      <time dateTime={e.at} title={new Date(e.at).toLocaleString()}>
        {whenWords(e.at)}
      </time>
    ),
  },
  {
    header: 'What happened',
    cell: (e) =>
      auditSentence(e).map((p, i) =>
        typeof p === 'string' ? (
          p
        ) : (
          <Link key={i} to={p.to}>
            {p.text}
          </Link>
        ),
      ),
  },
  { header: 'Details', className: 'audit-detail', cell: (e) => <Detail entry={e} /> },
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
        <Select label="Action" value={filters.action} onChange={(v) => setFilter('action', v)} options={[['', 'Every action'], ...AUDIT_ACTIONS.map((a): [string, string] => [a, AUDIT_WORDS[a].label])]} />
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
