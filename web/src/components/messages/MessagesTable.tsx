// Messages as table columns: the Messages screen (paged, ListTable) and a contact's page (its
// newest, Table). A failed message shows the transport's reason under its status; an unknown one
// says why it is never re-sent; a test run's message (sent only to the person testing) is marked Test.
import { Link } from 'react-router';
import type { HubMessage } from '../../data/messages';
import { StatusBadge, Time } from '../controls';
import { KeptInOutboxLabel } from '../dev/DevLabel';
import type { Column } from '../list';
import './messages.css';

export const CHANNEL_WORDS: Record<HubMessage['channel'], string> = { email: 'Email', sms: 'SMS', team: 'Team' };
/** A message's status in a word or two (the filter's options and the list's badges). */
export const MESSAGE_STATUS_WORDS: Record<HubMessage['status'], string> = {
  queued: 'Waiting to be sent',
  sending: 'Being sent',
  sent: 'Sent',
  failed: 'Not delivered',
  unknown: 'Delivery unknown',
};

const none = <span className="muted">—</span>;

/** The columns; `showContact` false on a contact's own page. */
export function messageColumns(showContact = true): Column<HubMessage>[] {
  const columns: (Column<HubMessage> | false)[] = [
    // The time opens the message's page (its subject, body and attempts).
    { header: 'Time', cell: (m) => <Link to={`/messages/${m.id}`} aria-label={`Message of ${new Date(m.created_at).toLocaleString()}`}><Time iso={m.created_at} /></Link> },
    {
      header: 'Channel',
      cell: (m) => (
        <>
          {CHANNEL_WORDS[m.channel]}
          {m.test && <span className="badge messages-badge-test">Test</span>}
        </>
      ),
    },
    {
      header: 'Status',
      cell: (m) => (
        <>
          {m.kept_in_outbox ? <KeptInOutboxLabel /> : <StatusBadge status={m.status} label={MESSAGE_STATUS_WORDS[m.status]} />}
          {m.status === 'failed' && m.error && <p className="messages-error">{m.error}</p>}
          {m.status === 'unknown' && <p className="messages-error">The sender lost track of it after handing it over; it is never sent again.</p>}
        </>
      ),
    },
    { header: 'Recipient', className: 'mono', cell: (m) => m.to },
    showContact && { header: 'Contact', cell: (m) => (m.contact ? <Link to={`/contacts/${m.contact.id}`}>{m.contact.name}</Link> : none) },
    { header: 'Automation', cell: (m) => (m.automation ? <Link to={`/automations/${m.automation.id}`}>{m.automation.name}</Link> : none) },
  ];
  return columns.filter((c): c is Column<HubMessage> => c !== false);
}
