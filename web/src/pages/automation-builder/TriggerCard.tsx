// The trigger: what starts a run (a new contact, a webhook call, a schedule), its label in run
// history, its own settings (the webhook URL; the cron and time zone), and the Run-only-if filter
// (contacts it does not match get a run that ends "Did not meet the Run only if criteria").
import { useId } from 'react';
import { ConditionFields } from './ConditionFields';
import { Labelled } from './ui';
import { ScheduleTrigger } from './ScheduleTrigger';
import type { Condition, DraftBody, Trigger } from '../../data/automations';
import { WebhookTrigger } from './WebhookTrigger';
import { TRIGGER_TYPES } from './words';

/** The label a type gets when chosen, unless the user wrote their own. */
const DEFAULT_LABELS: readonly string[] = TRIGGER_TYPES.map(([, , label]) => label);

export function TriggerCard({
  automationId,
  draft,
  change,
  webhookConfigured,
  issue,
}: {
  automationId: string;
  draft: DraftBody;
  change: (fn: (d: DraftBody) => DraftBody) => void;
  webhookConfigured: boolean;
  /** The server's message for a path of the draft (`trigger.config.cron`, `run_only_if.value`…). */
  issue: (path: string) => string | undefined;
}) {
  const headingId = useId();
  const filterId = useId();
  const t = draft.trigger;
  const setTrigger = (next: Trigger) => change((d) => ({ ...d, trigger: next }));
  const chooseType = (type: string) => {
    const chosen = TRIGGER_TYPES.find(([v]) => v === type);
    const label = !t.label || DEFAULT_LABELS.includes(t.label) ? (chosen?.[2] ?? '') : t.label;
    const config: Record<string, unknown> = type === 'schedule' ? { cron: '0 9 * * 1', timezone: 'UTC' } : {};
    setTrigger({ type: type || null, label, config });
  };
  const setFilter = (f: Condition | null) => change((d) => ({ ...d, run_only_if: f }));
  const filter = draft.run_only_if;
  const known = t.type === null || TRIGGER_TYPES.some(([v]) => v === t.type);
  return (
    <section className="card trigger-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Trigger</h2>
      <div className="builder-field-row">
        <Labelled label="Starts when" error={issue('trigger.type') ?? issue('trigger')}>
          {(a) => (
            <select {...a} value={t.type ?? ''} onChange={(e) => chooseType(e.target.value)}>
              <option value="">Choose a trigger</option>
              {!known && <option value={t.type!}>{t.type}</option>}
              {TRIGGER_TYPES.map(([v, words]) => (
                <option key={v} value={v}>
                  {words}
                </option>
              ))}
            </select>
          )}
        </Labelled>
        <Labelled label="Label in run history" error={issue('trigger.label')}>
          {(a) => <input {...a} value={t.label} maxLength={200} onChange={(e) => setTrigger({ ...t, label: e.target.value })} />}
        </Labelled>
      </div>
      {t.type === 'webhook' && <WebhookTrigger automationId={automationId} configured={webhookConfigured} />}
      {t.type === 'schedule' && (
        <ScheduleTrigger
          cron={typeof t.config.cron === 'string' ? t.config.cron : ''}
          timezone={typeof t.config.timezone === 'string' ? t.config.timezone : 'UTC'}
          onChange={(cron, timezone) => setTrigger({ ...t, config: { ...t.config, cron, timezone } })}
          errors={{ cron: issue('trigger.config.cron') ?? issue('trigger.config'), timezone: issue('trigger.config.timezone') }}
        />
      )}
      {t.type === 'schedule' && <p className="hint">A scheduled run has no contact: its email, text and contact steps are skipped.</p>}
      <div className="checkbox">
        <input
          id={filterId}
          type="checkbox"
          checked={filter !== null}
          onChange={(e) => setFilter(e.target.checked ? { field: 'lifecycle_stage', op: 'eq', value: 'lead' } : null)}
        />
        <label htmlFor={filterId}>Run only if the contact matches a condition</label>
      </div>
      {filter && (
        <ConditionFields
          condition={filter}
          onChange={setFilter}
          context="Run only if"
          errors={(k) => issue(`run_only_if.${k}`) ?? (k === 'field' ? issue('run_only_if') : undefined)}
        />
      )}
    </section>
  );
}
