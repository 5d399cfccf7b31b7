// The published versions, newest first, with who published each and when; any of them opens
// read-only (its trigger, filter, re-enrollment and steps as the flow shows them).
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Time } from '../../components/controls';
import { ErrorNotice, Loading, QueryState } from '../../components/states';
import { Modal } from '../../components/automations/Modal';
import { automationVersionQuery, automationVersionsQuery, type AutomationEditor } from '../../data/automations';
import { StepFlow } from './StepFlow';
import { FIELD_WORDS, OP_WORDS, REENROLL_WORDS, triggerWords } from './words';

function VersionView({ id, version, editor }: { id: string; version: number; editor: AutomationEditor }) {
  const q = useQuery(automationVersionQuery(id, version));
  if (q.isPending) return <Loading what={`Loading version ${version}`} />;
  if (q.error) return <ErrorNotice error={q.error} />;
  const v = q.data;
  const d = v.definition;
  const f = d.run_only_if;
  return (
    <div className="builder-version-view">
      <p>
        Published <Time iso={v.published_at} /> by {v.published_by ?? 'someone no longer in the account'}.
      </p>
      <dl className="facts">
        <dt>Name</dt>
        <dd>{d.name}</dd>
        <dt>Trigger</dt>
        <dd>
          {triggerWords(d.trigger.type)}
          {d.trigger.label && ` (“${d.trigger.label}”)`}
          {d.trigger.type === 'schedule' && ` · ${String(d.trigger.config.cron ?? '')} ${String(d.trigger.config.timezone ?? 'UTC')}`}
        </dd>
        <dt>Run only if</dt>
        <dd>{f ? `${FIELD_WORDS[f.field as keyof typeof FIELD_WORDS] ?? f.field} ${OP_WORDS[(f.op ?? 'eq') as keyof typeof OP_WORDS] ?? f.op} ${f.value === undefined ? '' : JSON.stringify(f.value)}` : 'Every contact'}</dd>
        <dt>Enroll again</dt>
        <dd>{REENROLL_WORDS[d.reenroll]}</dd>
      </dl>
      <StepFlow steps={d.steps} setSteps={() => {}} issues={new Map()} microsPerSegment={editor.sms_micros_per_segment} consentRequired={editor.project.sms_consent_required} readOnly />
    </div>
  );
}

export function VersionsPanel({ editor }: { editor: AutomationEditor }) {
  const id = editor.automation.id;
  const headingId = useId();
  const q = useQuery(automationVersionsQuery(id));
  const [viewing, setViewing] = useState<number | null>(null);
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>Versions</h2>
      <QueryState q={q} isEmpty={(d) => d.data.length === 0} empty="Not published yet: publishing makes version 1.">
        {(d) => (
          <ol className="builder-versions" aria-label="Published versions, newest first">
            {d.data.map((v) => (
              <li key={v.version}>
                <div>
                  <strong>Version {v.version}</strong>
                  {v.version === editor.automation.published_version && <span className="badge badge-ok">runs now</span>}
                  <br />
                  <span className="muted">
                    {v.published_by ?? 'unknown'} · <Time iso={v.published_at} />
                  </span>
                </div>
                <button type="button" className="button-secondary" aria-label={`View version ${v.version}`} onClick={() => setViewing(v.version)}>
                  View
                </button>
              </li>
            ))}
          </ol>
        )}
      </QueryState>
      <Modal open={viewing !== null} title={`Version ${viewing ?? ''} (read-only)`} onClose={() => setViewing(null)} wide>
        {viewing !== null && <VersionView id={id} version={viewing} editor={editor} />}
        <div className="actions">
          <button type="button" onClick={() => setViewing(null)}>
            Close
          </button>
        </div>
      </Modal>
    </section>
  );
}
