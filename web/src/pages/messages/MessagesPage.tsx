// The Messages screen: every email, SMS and team message of the account, newest first, filtered by
// status and channel (and by contact or automation when a link brought the user here). Filters
// live in the URL query (useListQuery), so a filtered list can be bookmarked and survives a reload.
import { Link } from 'react-router';
import { Select } from '../../components/controls';
import { ClearFilters, ListTable, useListQuery } from '../../components/list';
import { CHANNEL_WORDS, MESSAGE_STATUS_WORDS, messageColumns } from '../../components/messages/MessagesTable';
import { PageHeader } from '../../components/PageHeader';
import { messageListQuery } from '../../data/messages';
import { MESSAGE_CHANNELS, OUTBOX_STATUSES as MESSAGE_STATUSES } from '@domain/message';

const COLUMNS = messageColumns();

export default function MessagesPage() {
  const list = useListQuery({ filters: ['status', 'channel', 'contact_id', 'automation_id'], query: messageListQuery });
  const { filters, setFilter } = list;
  const narrowed = filters.contact_id || filters.automation_id;
  return (
    <section aria-labelledby="messages-title">
      <PageHeader id="messages-title" title="Messages" />
      <form className="filters card" role="search" aria-label="Filter messages" onSubmit={(e) => e.preventDefault()}>
        <Select label="Status" value={filters.status} onChange={(v) => setFilter('status', v)} options={[['', 'Any status'], ...MESSAGE_STATUSES.map((s): [string, string] => [s, MESSAGE_STATUS_WORDS[s]])]} />
        <Select label="Channel" value={filters.channel} onChange={(v) => setFilter('channel', v)} options={[['', 'Any channel'], ...MESSAGE_CHANNELS.map((c): [string, string] => [c, CHANNEL_WORDS[c]])]} />
        <ClearFilters list={list} />
      </form>
      {narrowed && (
        <p className="muted">
          Showing the messages of one {filters.contact_id ? <Link to={`/contacts/${filters.contact_id}`}>contact</Link> : <Link to={`/automations/${filters.automation_id}`}>automation</Link>}.
        </p>
      )}
      <ListTable list={list} columns={COLUMNS} caption="Messages, newest first" label="Messages" empty="No messages match." />
    </section>
  );
}
