// Send test: runs the draft as saved (or a published version) for a chosen contact with
// test: true; what it sends goes only to the signed-in person's own address. The test run's steps
// are shown as they happen (GET /hub/api/automation-runs/:id, polled until it ends or waits).
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { StatusBadge } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { api } from '../../lib/api';
import { ContactPicker, contactName } from './contacts';
import { Labelled } from './ui';
import type { ContactSummary, RunDetail, TestStarted } from './types';
import { useVersions } from './VersionsPanel';

function TestRun({ runId }: { runId: string }) {
  const q = useQuery({
    queryKey: ['hub', 'automation-runs', runId],
    queryFn: () => api.get<RunDetail>(`/hub/api/automation-runs/${runId}`),
    refetchInterval: (query) => (query.state.data && query.state.data.status !== 'running' ? false : 1000),
  });
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
      <ol className="test-steps" aria-label="Steps of the test run">
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
  const [contact, setContact] = useState<ContactSummary | null>(null);
  const [version, setVersion] = useState('');
  const versions = useVersions(automationId);
  const send = useMutation({
    mutationFn: async () => {
      // The draft as saved now: anything typed a moment ago is saved first.
      if (!version && !(await flush())) throw new Error('The draft could not be saved; fix it before testing.');
      return api.post<TestStarted>(`/hub/api/automations/${automationId}/test`, { contact_id: contact!.id, ...(version ? { version: Number(version) } : {}) });
    },
  });
  return (
    <section className="card test-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Send test</h2>
      <p className="hint">A test run goes through the steps for a contact, but every email and text goes only to you.</p>
      <ul className="hint test-facts">
        <li>Emails and texts of a test come to you by email: a text arrives as an email titled “[Test] Text message”.</li>
        <li>Waits really wait: a test of a “1 day” wait takes a day before its next step.</li>
      </ul>
      <ContactPicker chosen={contact} onChoose={setContact} />
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
      <button type="button" disabled={!contact || send.isPending} onClick={() => send.mutate()}>
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
