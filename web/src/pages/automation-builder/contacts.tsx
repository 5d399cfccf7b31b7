// The account's contacts for the builder's pickers (the hub's contacts route, /v1's search): the
// email preview's sample contact, and Send test's contact, found by name or email.
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ErrorNotice } from '../../components/states';
import { api, qs } from '../../lib/api';
import type { ContactSummary, ListPage } from './types';
import { Labelled } from './ui';

export function contactName(c: ContactSummary): string {
  return [c.first_name, c.last_name].filter(Boolean).join(' ') || c.email || c.id;
}

/** Up to `limit` contacts, most recently changed first, or those whose words begin with `q`. */
export function useContacts(q: string, limit = 8) {
  const words = q.trim();
  return useQuery({
    queryKey: ['hub', 'contacts', 'picker', words, limit],
    queryFn: () => api.get<ListPage<ContactSummary>>(`/hub/api/contacts${qs({ q: /[\p{L}\p{N}]/u.test(words) ? words : undefined, limit })}`),
    placeholderData: (previous) => previous,
    staleTime: 30_000,
  });
}

export function ContactPicker({ chosen, onChoose }: { chosen: ContactSummary | null; onChoose: (c: ContactSummary) => void }) {
  const [q, setQ] = useState('');
  const results = useContacts(q, 6);
  const groupId = useId();
  const list = results.data?.data ?? [];
  return (
    <div className="contact-picker">
      <Labelled label="Find a contact" help="Name or email; the test uses their fields but sends to you.">
        {(a) => <input {...a} type="search" value={q} onChange={(e) => setQ(e.target.value)} autoComplete="off" />}
      </Labelled>
      <ErrorNotice error={results.error} />
      <fieldset className="plain" aria-busy={results.isFetching && !results.data ? true : undefined}>
        <legend className="visually-hidden">Contact for the test</legend>
        {results.isPending ? (
          <p className="state">Looking…</p>
        ) : list.length === 0 ? (
          <p className="state state-empty">{q ? 'No contact matches.' : 'No contacts yet.'}</p>
        ) : (
          list.map((c) => (
            <div key={c.id} className="checkbox">
              <input type="radio" id={`${groupId}-${c.id}`} name={groupId} checked={chosen?.id === c.id} onChange={() => onChoose(c)} />
              <label htmlFor={`${groupId}-${c.id}`}>
                {contactName(c)} {c.email && <span className="muted">{c.email}</span>}
              </label>
            </div>
          ))
        )}
      </fieldset>
    </div>
  );
}
