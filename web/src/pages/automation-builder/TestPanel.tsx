// Send test: runs the draft as saved (or a published version) for a chosen contact with
// test: true; what it sends goes only to the signed-in person's own address. The test run's steps
// are shown as they happen (GET /hub/api/automation-runs/:id, polled until it ends or waits).
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { StatusBadge } from '../../components/controls';
import { SearchPicker } from '../../components/list';
import { ErrorNotice } from '../../components/states';
import { automationRunQuery } from '../../data/automation-runs';
import { automationVersionsQuery, useSendTest } from '../../data/automations';
import { contactListQuery, contactName, contactSearch, type Contact } from '../../data/contacts';
import { Labelled } from './ui';

/** The account's contacts, most recently changed first, or those whose words begin with the search. */
const contactsFor = (search: string) => contactListQuery({ q: contactSearch(search), limit: '20' });
const contactOption = (c: Contact) => [c.id, c.email ? `${contactName(c)} (${c.email})` : contactName(c)] as const;

function TestRun({ runId }: { runId: string }) {
  const q = useQuery(automationRunQuery(runId));
  if (q.error) return <ErrorNotice error={q.error} />;
  if (!q.data) return <p className="state">Starting the test run…</p>;
  const r = q.data;
  return (
    <div className="test-run">
      <p aria-live="polite">
        <StatusBadge status={r.status} label={r.status_label} />
        {r.error && <span className="builder-run-error"> {r.error}</span>}
      </p>
      {r.steps.length === 0 && <p className="state state-empty">No step has run yet.</p>}
      <ol className="builder-test-steps" aria-label="Steps of the test run">
        {r.steps.map((s, i) => (
          <li key={`${s.step_id}-${i}`}>
            <StatusBadge status={s.status} /> {s.name}
            {s.error && <span className="builder-run-error"> {s.error}</span>}
          </li>
        ))}
      </ol>
    </div>
  );
}

export function TestPanel({ automationId, flush }: { automationId: string; flush: () => Promise<boolean> }) {
  const headingId = useId();
  const [contact, setContact] = useState<Contact | null>(null);
  const [version, setVersion] = useState('');
  const versions = useQuery(automationVersionsQuery(automationId));
  const send = useSendTest(automationId, async (body) => {
    // The draft as saved now: anything typed a moment ago is saved first.
    if (body.version === undefined && !(await flush())) throw new Error('The draft could not be saved; fix it before testing.');
  });
  return (
    <section className="card test-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Send test</h2>
      <p className="hint">A test run goes through the steps for a contact, but every email and text goes only to you.</p>
      <ul className="hint test-facts">
        <li>Emails and texts of a test come to you by email: a text arrives as an email titled “[Test] Text message”.</li>
        <li>Waits really wait: a test of a “1 day” wait takes a day before its next step.</li>
      </ul>
      <SearchPicker
        label="Contact for the test"
        searchable
        value={contact?.id ?? ''}
        onChange={(_, row) => setContact(row ?? null)}
        query={contactsFor}
        option={contactOption}
        none="Choose a contact"
        current={contact ? contactName(contact) : undefined}
      />
      <p className="hint">Found by name or email: the test uses their fields but sends to you.</p>
      <Labelled label="Test">
        {(a) => (
          <select {...a} value={version} onChange={(e) => setVersion(e.target.value)}>
            <option value="">The draft as saved now</option>
            {(versions.data?.data ?? []).map((v) => (
              <option key={v.version} value={v.version}>
                Version {v.version}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      <button type="button" disabled={!contact || send.isPending} onClick={() => contact && send.mutate({ contact_id: contact.id, ...(version ? { version: Number(version) } : {}) })}>
        {send.isPending ? 'Sending…' : contact ? `Send test for ${contactName(contact)}` : 'Send test'}
      </button>
      <ErrorNotice error={send.error} />
      {send.data && (
        <>
          <p className="notice notice-ok" role="status">
            Sent to {send.data.tester_email}. <Link to={`/messages?automation_id=${automationId}`}>See it in Messages</Link>
          </p>
          <TestRun key={send.data.run.id} runId={send.data.run.id} />
        </>
      )}
    </section>
  );
}
