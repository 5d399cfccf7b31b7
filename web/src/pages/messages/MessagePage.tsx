// One message (issue 25, item 4): what it said and what became of it. Owners and admins see the
// whole recipient and the body (an email in a sandboxed frame, MessageBody.tsx); members see the
// recipient masked and no body, as the server sends them (the person's address and what was said
// to them are personal data). Every attempt is listed with the transport's answer, addresses
// blanked by the server. Links: the contact, the automation, the run (and step) that sent it, and
// the message it re-sends or that re-sent it. Owners and admins may re-send one that was not
// delivered (Re-send): a failed one at once, an unknown one after a confirmation that it may
// arrive twice; the server decides (resendRule, the contact's opt-outs) and says why it will not.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { resendRule } from '@domain/message';
import { ConfirmDialog, StatusBadge, Time } from '../../components/controls';
import { KeptInOutboxLabel } from '../../components/dev/DevLabel';
import { PageHeader } from '../../components/PageHeader';
import { ErrorNotice, QueryState } from '../../components/states';
import { messageQuery, useResendMessage, type HubMessageDetail, type MessageAttempt } from '../../data/messages';
import { isAdmin, useSession } from '../../lib/session';
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
      return 'Delivery unknown: the sender lost track of it after handing it over; it is never sent again on its own';
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

/** Re-send (owners and admins): a failed message at once; an unknown one after saying it may arrive twice. Opens the new message. */
function Resend({ m }: { m: HubMessageDetail }) {
  const navigate = useNavigate();
  const resend = useResendMessage(m.id);
  const [confirming, setConfirming] = useState(false);
  const rule = resendRule(m.status);
  if (rule === 'refused' || m.resent_as) return null;
  const go = (force: boolean) => resend.mutate(force ? { force } : {}, { onSuccess: (sent) => void navigate(`/messages/${sent.id}`) });
  return (
    <>
      <button type="button" onClick={() => (rule === 'needs_force' ? setConfirming(true) : go(false))} disabled={resend.isPending}>
        {resend.isPending ? 'Re-sending…' : rule === 'needs_force' ? 'Re-send…' : 'Re-send'}
      </button>
      <ConfirmDialog
        open={confirming}
        title="Re-send a message that may have arrived?"
        confirmLabel="Re-send anyway"
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          go(true);
        }}
      >
        <p>
          The sender lost track of this message after handing it over, so it may have arrived already. If it did, re-sending it means it
          arrives twice.
        </p>
      </ConfirmDialog>
      <ErrorNotice error={resend.error} />
    </>
  );
}

/** The message this one re-sends, and the one that re-sent it. */
function Resends({ m }: { m: HubMessageDetail }) {
  if (!m.resend_of && !m.resent_as) return null;
  return (
    <p>
      {m.resend_of && <Link to={`/messages/${m.resend_of}`}>Re-send of an earlier message</Link>}
      {m.resend_of && m.resent_as && ' · '}
      {m.resent_as && <Link to={`/messages/${m.resent_as}`}>Re-sent as a new message</Link>}
    </p>
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
      <Resends m={m} />
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
  const admin = isAdmin(useSession());
  const title = q.data ? (q.data.subject ? `${CHANNEL_NOUN[q.data.channel]}: ${q.data.subject}` : CHANNEL_NOUN[q.data.channel]) : 'Message';
  return (
    <section aria-labelledby="message-title">
      <p>
        <Link to="/messages">← Messages</Link>
      </p>
      <PageHeader id="message-title" title={title}>
        {q.data && admin && <Resend m={q.data} />}
      </PageHeader>
      <QueryState q={q}>{(m) => <MessageView m={m} />}</QueryState>
    </section>
  );
}
