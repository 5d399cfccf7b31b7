// One automation run (issue 25, item 4): whose run it is (the contact), of which automation and
// version, its status in Run history's words, and each step in order with its status, time, what
// it did in words, the messages it queued (each opens its page) and its error. The server words
// every step (src/hub/automation-runs/words.ts); the page reads again every second while the run
// runs (data/automation-runs.ts).
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { StatusBadge, Time } from '../../components/controls';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/states';
import { automationRunQuery, type HubAutomationRunDetail, type HubRunStep } from '../../data/automation-runs';
import './automation-runs.css';

/** A step's status in words (the ledger's values, never shown raw). */
const STEP_STATUS_WORDS: Record<HubRunStep['status'], string> = {
  ok: 'Done',
  running: 'Running',
  waiting: 'Waiting',
  skipped: 'Skipped',
  failed: 'Failed',
  unknown: 'Outcome unknown',
};

const CHANNEL_NOUN: Record<HubRunStep['messages'][number]['channel'], string> = { email: 'email', sms: 'text message', team: 'team notice' };

/** A test of the draft runs no published version (version 0): say so rather than "0". */
const versionWords = (r: HubAutomationRunDetail) => (r.test ? (r.version ? `Version ${r.version}, a test run` : 'The draft, a test run') : `Version ${r.version}`);

function Step({ s, n }: { s: HubRunStep; n: number }) {
  return (
    <li className={`ar-step ar-step-${s.status}`}>
      <div className="ar-step-head">
        <h3>
          <span className="ar-step-n">{n}.</span> {s.name || s.type_label}
          {s.name && s.name !== s.type_label && <span className="muted"> · {s.type_label}</span>}
        </h3>
        <StatusBadge status={s.status} label={STEP_STATUS_WORDS[s.status]} />
        <Time iso={s.started_at} />
      </div>
      <p className="ar-step-did">{s.did}</p>
      {s.messages.length > 0 && (
        <ul className="ar-step-messages">
          {s.messages.map((m, i) => (
            <li key={m.id}>
              <Link to={`/messages/${m.id}`}>
                See the {CHANNEL_NOUN[m.channel]}
                {s.messages.length > 1 ? ` ${i + 1}` : ''}
              </Link>{' '}
              <StatusBadge status={m.status} />
            </li>
          ))}
        </ul>
      )}
      {s.error && <p className="ar-step-error">{s.error}</p>}
    </li>
  );
}

function RunView({ run }: { run: HubAutomationRunDetail }) {
  return (
    <>
      <p>
        <StatusBadge status={run.status} label={run.status_label} />
        {run.error && <span className="ar-run-error"> {run.error}</span>}
      </p>
      <dl className="facts">
        <dt>Contact</dt>
        <dd>{run.contact ? <Link to={`/contacts/${run.contact.id}`}>{run.contact.name}</Link> : <span className="muted">No contact</span>}</dd>
        <dt>Automation</dt>
        <dd>
          <Link to={`/automations/${run.automation.id}`}>{run.automation.name || 'Automation'}</Link> · {versionWords(run)}
        </dd>
        <dt>Started by</dt>
        <dd>{run.started_by}</dd>
        <dt>Started</dt>
        <dd>
          <Time iso={run.started_at} />
        </dd>
        <dt>{run.finished_at ? 'Finished' : 'Next step'}</dt>
        <dd>{run.finished_at || run.next_at ? <Time iso={run.finished_at ?? run.next_at} /> : <span className="muted">As soon as a worker is free</span>}</dd>
      </dl>
      <h2>Steps</h2>
      <ol className="ar-steps" aria-label="Steps, in the order they ran">
        {run.steps.map((s, i) => (
          <Step key={`${s.step_id}-${i}`} s={s} n={i + 1} />
        ))}
      </ol>
    </>
  );
}

export default function AutomationRunPage() {
  const { id = '' } = useParams();
  const q = useQuery(automationRunQuery(id));
  const title = q.data ? `${q.data.automation.name || 'Automation'} for ${q.data.contact?.name ?? 'no contact'}` : 'Automation run';
  return (
    <section aria-labelledby="run-title">
      <p>{q.data ? <Link to={`/automations/${q.data.automation.id}`}>← {q.data.automation.name || 'Automation'}</Link> : <Link to="/automations">← Automations</Link>}</p>
      <PageHeader id="run-title" title={title} />
      <QueryState q={q}>{(run) => <RunView run={run} />}</QueryState>
    </section>
  );
}
