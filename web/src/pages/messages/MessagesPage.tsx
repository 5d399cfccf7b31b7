// The Messages screen: every email, SMS and team message of the account, newest first, filtered by
// status and channel (and by contact or automation when a link brought the user here). Filters
// live in the URL query, so a filtered list can be bookmarked and survives a reload.
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { Pager, Select, useCursorPager } from '../../components/controls';
import { QueryState } from '../../components/states';
import { api, qs } from '../../lib/api';
import type { Page } from '../contacts/types';
import { MessagesTable } from './MessagesTable';
import { CHANNEL_WORDS, MESSAGE_CHANNELS, MESSAGE_STATUSES, type Message } from './types';
import { PageHeader } from '../../components/PageHeader';

const FILTERS = ['status', 'channel', 'contact_id', 'automation_id'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

function MessagesList({ filters }: { filters: Filters }) {
  const pager = useCursorPager();
  const q = useQuery({
    queryKey: ['hub', 'messages', filters, pager.cursor],
    queryFn: () => api.get<Page<Message>>(`/hub/api/messages${qs({ ...filters, cursor: pager.cursor })}`),
    // Messages move from queued to sent on their own: keep the list current while it is open.
    refetchInterval: 10_000,
  });
  return (
    <QueryState q={q} isEmpty={(d) => d.data.length === 0} empty={pager.page === 1 ? 'No messages match.' : 'No more messages.'}>
      {(d) => (
        <>
          <MessagesTable messages={d.data} caption="Messages, newest first" />
          <Pager pager={pager} nextCursor={d.next_cursor} label="Messages" />
        </>
      )}
    </QueryState>
  );
}

export default function MessagesPage() {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])) as Filters;
  const set = (name: keyof Filters) => (value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next);
  };
  const narrowed = filters.contact_id || filters.automation_id;
  return (
    <section aria-labelledby="messages-title">
      <PageHeader id="messages-title" title="Messages" />
      <form className="filters card" role="search" aria-label="Filter messages" onSubmit={(e) => e.preventDefault()}>
        <Select label="Status" value={filters.status} onChange={set('status')} options={[['', 'Any status'], ...MESSAGE_STATUSES.map((s): [string, string] => [s, s])]} />
        <Select label="Channel" value={filters.channel} onChange={set('channel')} options={[['', 'Any channel'], ...MESSAGE_CHANNELS.map((c): [string, string] => [c, CHANNEL_WORDS[c]])]} />
        {Object.values(filters).some(Boolean) && (
          <button type="button" className="button-secondary" onClick={() => setParams(new URLSearchParams())}>
            Clear filters
          </button>
        )}
      </form>
      {narrowed && (
        <p className="muted">
          Showing the messages of one {filters.contact_id ? <Link to={`/contacts/${filters.contact_id}`}>contact</Link> : <Link to={`/automations/${filters.automation_id}`}>automation</Link>}.
        </p>
      )}
      <MessagesList key={JSON.stringify(filters)} filters={filters} />
    </section>
  );
}
