// Send test: runs the draft as saved (or a published version) for a chosen contact with
// test: true; what it sends goes only to the signed-in person's own address. The test run's steps
// are shown as they happen (GET /hub/api/automation-runs/:id, polled until it ends or waits).
// With no contact in the account yet, it offers to create a test contact first; after a send it
// says whether that contact matches the Run-only-if filter (a test runs whatever the filter says).
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { StatusBadge } from '../../components/controls';
import { SearchPicker } from '../../components/list';
import { ErrorNotice } from '../../components/states';
import { automationRunQuery } from '../../data/automation-runs';
import { automationVersionsQuery, useSendTest, type TestStarted } from '../../data/automations';
import { conditionWords } from '../../components/automations/words';
import { contactListQuery, contactName, contactSearch, type Contact } from '../../data/contacts';
import { TestContact } from './TestContact';
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

/** What the filter would have done for this contact; nothing when what was tested has no filter. */
function FilterNote({ filter, name }: { filter: TestStarted['filter']; name: string }) {
  if (!filter) return null;
  const words = conditionWords(filter.condition);
  if (filter.matches) return <p className="hint">{name} matches the filter “{words}”.</p>;
  return (
    <p className="notice notice-warn" role="status">
      {name} does not match the filter “{words}”
      {filter.error ? ` (it could not be applied: ${filter.error})` : ''}; a run started by the trigger would skip them. The test ran anyway.
    </p>
  );
}

export function TestPanel({ automationId, flush }: { automationId: string; flush: () => Promise<boolean> }) {
  const headingId = useId();
  const [contact, setContact] = useState<Contact | null>(null);
  const [version, setVersion] = useState('');
  const [adding, setAdding] = useState(false);
  // Whether the account has any contact at all: with none, the test contact form comes first.
  const anyContact = useQuery(contactsFor(''));
  const none = anyContact.data?.data.length === 0 && !contact;
  const created = (c: Contact) => {
    setAdding(false);
    setContact(c);
  };
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
      {none ? (
        <TestContact first onCreated={created} />
      ) : (
        <>
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
          {adding ? (
            <TestContact first={false} onCreated={created} onCancel={() => setAdding(false)} />
          ) : (
            <button type="button" className="button-secondary" onClick={() => setAdding(true)}>
              Create a test contact
            </button>
          )}
        </>
      )}
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
          <FilterNote filter={send.data.filter} name={contact ? contactName(contact) : 'This contact'} />
          <TestRun key={send.data.run.id} runId={send.data.run.id} />
        </>
      )}
    </section>
  );
}
