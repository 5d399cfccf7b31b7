// The Contacts screen: the account's live contacts, most recently changed first, with /v1's
// search (words that begin a name or the email) and lifecycle filter. Both live in the URL query
// (useListQuery: bookmarkable, kept on reload, a change starts again at page 1); the search box
// applies on submit so typing does not flood the server.
import { useState } from 'react';
import { Link } from 'react-router';
import { Field, Select, StatusBadge, Time } from '../../components/controls';
import { ClearFilters, ListTable, useListQuery, type Column } from '../../components/list';
import { PageHeader } from '../../components/PageHeader';
import { contactListQuery, contactName, type Contact } from '../../data/contacts';
import { LIFECYCLE_STAGES, stageWord } from './words';
import './contacts.css';

const COLUMNS: Column<Contact>[] = [
  { header: 'Name', cell: (c) => <Link to={`/contacts/${c.id}`}>{contactName(c)}</Link> },
  { header: 'Email', cell: (c) => c.email ?? <span className="muted">—</span> },
  { header: 'Stage', cell: (c) => stageWord(c.lifecycle_stage) },
  {
    header: 'Flags',
    cell: (c) => (
      <span className="contacts-flags">
        {c.do_not_contact && <StatusBadge status="do_not_contact" />}
        {c.email_opt_out && <StatusBadge status="email_opted_out" />}
      </span>
    ),
  },
  { header: 'Changed', cell: (c) => <Time iso={c.updated_at} /> },
];

export default function ContactsPage() {
  const list = useListQuery({ filters: ['q', 'lifecycle_stage'], query: contactListQuery });
  const { filters, setFilter } = list;
  const [typed, setTyped] = useState(filters.q);
  return (
    <section aria-labelledby="contacts-title">
      <div className="page-head page-head-split">
        <PageHeader id="contacts-title" title="Contacts" />
        <Link className="button" to="/contacts/new">
          New contact
        </Link>
      </div>
      <form
        className="filters card"
        role="search"
        aria-label="Search contacts"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter('q', typed.trim());
        }}
      >
        <Field label="Search" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} hint="Words that begin a name or the email." />
        <button type="submit">Search</button>
        <Select label="Lifecycle stage" value={filters.lifecycle_stage} onChange={(v) => setFilter('lifecycle_stage', v)} options={[['', 'Any stage'], ...LIFECYCLE_STAGES.map((s): [string, string] => [s, stageWord(s)])]} />
        <ClearFilters list={list} also={() => setTyped('')} />
      </form>
      <ListTable
        list={list}
        columns={COLUMNS}
       
        caption="Contacts, most recently changed first"
        label="Contacts"
        empty={list.filtered ? 'No contacts match.' : 'No contacts yet.'}
      />
    </section>
  );
}
