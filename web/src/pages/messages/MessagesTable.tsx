// A table of messages: the Messages screen and a contact's page. A failed message shows the
// transport's reason under its status; an unknown one says why it is never re-sent; a test run's
// message (sent only to the person testing) is marked Test.
import { Link } from 'react-router';
import { StatusBadge, Time } from '../../components/controls';
import { CHANNEL_WORDS, type Message } from './types';
import './messages.css';

export function MessagesTable({ messages, caption, showContact = true }: { messages: Message[]; caption: string; showContact?: boolean }) {
  return (
    <table aria-label={caption}>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Channel</th>
          <th scope="col">Status</th>
          <th scope="col">Recipient</th>
          {showContact && <th scope="col">Contact</th>}
          <th scope="col">Automation</th>
        </tr>
      </thead>
      <tbody>
        {messages.map((m) => (
          <tr key={m.id} data-message-id={m.id}>
            <td>
              <Time iso={m.created_at} />
            </td>
            <td>
              {CHANNEL_WORDS[m.channel]}
              {m.test && <span className="badge badge-test">Test</span>}
            </td>
            <td>
              <StatusBadge status={m.status} />
              {m.status === 'failed' && m.error && <p className="message-error">{m.error}</p>}
              {m.status === 'unknown' && <p className="message-error">The sender lost track of it after handing it over; it is never sent again.</p>}
            </td>
            <td className="mono">{m.to}</td>
            {showContact && <td>{m.contact ? <Link to={`/contacts/${m.contact.id}`}>{m.contact.name}</Link> : <span className="muted">—</span>}</td>}
            <td>{m.automation ? <Link to={`/automations/${m.automation.id}`}>{m.automation.name}</Link> : <span className="muted">—</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
