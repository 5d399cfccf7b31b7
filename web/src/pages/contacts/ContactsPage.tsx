// The Contacts screen: the account's live contacts, most recently changed first, with /v1's
// search (words that begin a name or the email) and lifecycle filter. Both live in the URL query
// (bookmarkable, kept on reload); the search box applies on submit so typing does not flood the server.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Field, Pager, Select, StatusBadge, Time, useCursorPager } from '../../components/controls';
import { QueryState } from '../../components/states';
import { api, qs } from '../../lib/api';
import { contactName, LIFECYCLE_STAGES, stageWord, type Contact, type Page } from './types';
import './contacts.css';
import { PageHeader } from '../../components/PageHeader';

function ContactsList({ q, stage }: { q: string; stage: string }) {
  const pager = useCursorPager();
  const query = useQuery({
    queryKey: ['hub', 'contacts', q, stage, pager.cursor],
    queryFn: () => api.get<Page<Contact>>(`/hub/api/contacts${qs({ q, lifecycle_stage: stage, cursor: pager.cursor })}`),
  });
  return (
    <QueryState q={query} isEmpty={(d) => d.data.length === 0} empty={pager.page === 1 ? (q || stage ? 'No contacts match.' : 'No contacts yet.') : 'No more contacts.'}>
      {(d) => (
        <>
          <table aria-label="Contacts, most recently changed first">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Stage</th>
                <th scope="col">Flags</th>
                <th scope="col">Changed</th>
              </tr>
            </thead>
            <tbody>
              {d.data.map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link to={`/contacts/${c.id}`}>{contactName(c)}</Link>
                  </td>
                  <td>{c.email ?? <span className="muted">—</span>}</td>
                  <td>{stageWord(c.lifecycle_stage)}</td>
                  <td>
                    <span className="contact-flags">
                      {c.do_not_contact && <StatusBadge status="do_not_contact" />}
                      {c.email_opt_out && <StatusBadge status="email_opted_out" />}
                    </span>
                  </td>
                  <td>
                    <Time iso={c.updated_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager pager={pager} nextCursor={d.next_cursor} label="Contacts" />
        </>
      )}
    </QueryState>
  );
}

export default function ContactsPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const stage = params.get('lifecycle_stage') ?? '';
  const [typed, setTyped] = useState(q);
  const update = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next);
  };
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
          update('q', typed.trim());
        }}
      >
        <Field label="Search" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} hint="Words that begin a name or the email." />
        <button type="submit">Search</button>
        <Select label="Lifecycle stage" value={stage} onChange={(v) => update('lifecycle_stage', v)} options={[['', 'Any stage'], ...LIFECYCLE_STAGES.map((s): [string, string] => [s, stageWord(s)])]} />
        {(q || stage) && (
          <button
            type="button"
            className="button-secondary"
            onClick={() => {
              setTyped('');
              setParams(new URLSearchParams());
            }}
          >
            Clear filters
          </button>
        )}
      </form>
      <ContactsList key={`${q}|${stage}`} q={q} stage={stage} />
    </section>
  );
}
