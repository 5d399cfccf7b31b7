// One message (issue 25, item 4): what it said and what became of it. Owners and admins see the
// whole recipient and the body (an email in a sandboxed frame, MessageBody.tsx); members see the
// recipient masked and no body, as the server sends them (the person's address and what was said
// to them are personal data). Every attempt is listed with the transport's answer, addresses
// blanked by the server. Links: the contact, the automation, and the run (and step) that sent it.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { StatusBadge, Time } from '../../components/controls';
import { KeptInOutboxLabel } from '../../components/dev/DevLabel';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/states';
import { messageQuery, type HubMessageDetail, type MessageAttempt } from '../../data/messages';
import { MessageBody } from './MessageBody';
import '../../components/messages/messages.css';
import './message.css';

const CHANNEL_NOUN: Record<HubMessageDetail['channel'], string> = { email: 'Email', sms: 'Text message', team: 'Team notice' };

/** Who answered, in words; an unnamed transport by its name. */
function transportWords(t: string | null): string {
  if (t === 'smtp') return 'the mail server';
  if (t === 'http') return 'the SMS provider';
  if (t === 'outbox') return 'the outbox (development: nothing leaves the server)';
  if (t === 'none') return 'no transport: it was held back before sending';
  return t ? `the ${t} transport` : 'not recorded';
}

function statusWords(m: HubMessageDetail): string {
  switch (m.status) {
    case 'queued':
      return 'Waiting to be sent';
    case 'sending':
      return 'Being sent now';
    case 'sent':
      return 'Sent';
    case 'failed':
      return 'Not delivered';
    case 'unknown':
      return 'Delivery unknown: the sender lost track of it after handing it over; it is never sent again';
  }
}

const OUTCOME_WORDS: Record<MessageAttempt['outcome'], string> = {
  sent: 'Accepted',
  retry: 'Refused for now, tried again later',
  failed: 'Not delivered',
  unknown: 'No answer',
};

function Attempts({ log }: { log: MessageAttempt[] }) {
  if (!log.length) return <p className="state state-empty">No attempt yet.</p>;
  return (
    <ol className="message-attempts" aria-label="Delivery attempts, oldest first">
      {log.map((a, i) => (
        <li key={`${a.at}-${i}`}>
          <div className="message-attempt-head">
            <strong>Attempt {i + 1}</strong>
            <StatusBadge status={a.outcome === 'sent' ? 'sent' : a.outcome === 'retry' ? 'queued' : a.outcome} label={OUTCOME_WORDS[a.outcome]} />
            <Time iso={a.at} />
          </div>
          <p className="message-answer">
            Answered by {transportWords(a.transport)}
            {a.reason ? `: ${a.reason}` : ''}
          </p>
          {a.answer && (
            <p className="message-answer">
              Its answer: <code>{a.answer}</code>
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}

function MessageView({ m }: { m: HubMessageDetail }) {
  return (
    <>
      <p>
        {/* The development transport's "sent": the same label as in Messages, not a green "sent". */}
        {m.status === 'sent' && m.transport === 'outbox' ? <KeptInOutboxLabel /> : <StatusBadge status={m.status} label={statusWords(m)} />}
        {m.test && <span className="badge messages-badge-test">Test</span>}
      </p>
      <dl className="facts">
        <dt>To</dt>
        <dd className="message-to">
          {m.to}
          {m.to_masked && <span className="muted"> (masked: owners and admins see the whole address)</span>}
        </dd>
        <dt>Contact</dt>
        <dd>{m.contact ? <Link to={`/contacts/${m.contact.id}`}>{m.contact.name}</Link> : <span className="muted">None (sent to the team)</span>}</dd>
        <dt>Sent by</dt>
        <dd>
          {m.automation_run_id ? (
            <>
              <Link to={`/automation-runs/${m.automation_run_id}`}>the run</Link>
              {m.step ? ` (step “${m.step.name}”)` : ''} of{' '}
              {m.automation ? <Link to={`/automations/${m.automation.id}`}>{m.automation.name}</Link> : 'an automation'}
            </>
          ) : (
            <span className="muted">No automation run</span>
          )}
        </dd>
        <dt>Queued</dt>
        <dd>
          <Time iso={m.created_at} />
        </dd>
        <dt>Sent</dt>
        <dd>
          <Time iso={m.sent_at} />
        </dd>
        {m.error && (
          <>
            <dt>Why not delivered</dt>
            <dd className="message-to">{m.error}</dd>
          </>
        )}
      </dl>
      <h2>What it said</h2>
      {m.body_hidden ? (
        <p className="message-hidden">Only owners and admins can read a message’s body.</p>
      ) : (
        <MessageBody id={m.id} body={m.body ?? ''} format={m.body_format} title={`Body of ${m.subject ? `“${m.subject}”` : 'the message'}`} />
      )}
      <h2>Delivery attempts</h2>
      <Attempts log={m.attempt_log} />
    </>
  );
}

export default function MessagePage() {
  const { id = '' } = useParams();
  const q = useQuery(messageQuery(id));
  const title = q.data ? (q.data.subject ? `${CHANNEL_NOUN[q.data.channel]}: ${q.data.subject}` : CHANNEL_NOUN[q.data.channel]) : 'Message';
  return (
    <section aria-labelledby="message-title">
      <p>
        <Link to="/messages">← Messages</Link>
      </p>
      <PageHeader id="message-title" title={title} />
      <QueryState q={q}>{(m) => <MessageView m={m} />}</QueryState>
    </section>
  );
}
