// The trigger: how the workflow starts, edited from the node at the top of the graph. A workflow
// can always be started with Run now and through the API; a schedule adds runs of its own (while
// the workflow is active). So the choice here only changes the definition for Schedule — its cron
// expression, picked as every day/week/month at a time or typed for advanced use — and the other
// choices say how to start it. Chat is named as coming later, not offered.
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState, type RefObject } from 'react';
import { Link } from 'react-router';
import { CopyButton } from '../../components/controls';
import { schedulePreviewQuery } from '../../data/workflows';
import { HubError } from '../../lib/api';
import { useDebounced } from '../../lib/useDebounced';
import { cronOf, inZone, LAST_MONTHDAY, pickOf, WEEKDAYS, type Frequency, type Picked } from './schedule-picker';

export type TriggerMode = 'manual' | 'schedule' | 'api';

/** The next runs of a schedule, asked once the typing pauses; `problem` is the server's refusal of it. */
export function useSchedulePreview(schedule: string | null, timezone: string) {
  const cron = (schedule ?? '').trim();
  const settled = useDebounced({ cron, timezone: timezone.trim() }, 400);
  const preview = useQuery(schedulePreviewQuery(settled.cron, settled.timezone));
  // Typing not yet settled: the last answer is about an older expression, so none is shown.
  const pending = settled.cron !== cron || settled.timezone !== timezone.trim();
  const refused = !pending && cron !== '' && preview.error instanceof HubError && preview.error.code === 'invalid_field' ? preview.error.message : null;
  const problem = schedule !== null && cron === '' ? 'Write a cron expression, or choose another way to repeat' : refused;
  return { next: !pending && cron !== '' ? (preview.data?.next ?? null) : null, problem, error: pending || problem ? null : preview.error, pending };
}

export type SchedulePreviewState = ReturnType<typeof useSchedulePreview>;

function zones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  return intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : ['UTC'];
}

const MODES: { value: TriggerMode | 'chat'; label: string; hint: string }[] = [
  { value: 'manual', label: 'Manually', hint: 'Someone presses Run now in the hub.' },
  { value: 'schedule', label: 'On a schedule', hint: 'Every day, week or month at a time you choose, while the workflow is active.' },
  { value: 'api', label: 'From another app (API)', hint: 'An app calls the API with a key.' },
  { value: 'chat', label: 'From a chat (coming later)', hint: 'Not available yet.' },
];

export interface TriggerPanelProps {
  workflowId: string | null;
  mode: TriggerMode;
  schedule: string | null;
  timezone: string;
  preview: SchedulePreviewState;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onMode: (m: TriggerMode) => void;
  onSchedule: (schedule: string, timezone: string) => void;
  onClose: () => void;
}

export function TriggerPanel(p: TriggerPanelProps) {
  const id = useId();
  return (
    <section className="wf-panel card" aria-labelledby={`${id}-title`}>
      <div className="wf-panel-head">
        <h2 id={`${id}-title`} ref={p.headingRef} tabIndex={-1}>
          Trigger: how it starts
        </h2>
        <button type="button" className="button-secondary wf-small" onClick={p.onClose} aria-label="Close trigger settings">
          Close
        </button>
      </div>
      <fieldset className="wf-modes">
        <legend>Starts</legend>
        {MODES.map((m) => (
          <div key={m.value} className="wf-mode">
            <input
              type="radio"
              id={`${id}-${m.value}`}
              name={`${id}-mode`}
              checked={p.mode === m.value}
              disabled={m.value === 'chat'}
              aria-describedby={`${id}-${m.value}-hint`}
              onChange={() => m.value !== 'chat' && p.onMode(m.value)}
            />
            <label htmlFor={`${id}-${m.value}`}>{m.label}</label>
            <small id={`${id}-${m.value}-hint`} className="hint">
              {m.hint}
            </small>
          </div>
        ))}
      </fieldset>
      {p.mode === 'manual' && <p>Press <strong>Run now</strong> at the top of the builder (once the workflow is saved). Run now and the API work whichever trigger you choose.</p>}
      {p.mode === 'schedule' && <SchedulePicker {...p} />}
      {p.mode === 'api' && <ApiHelp workflowId={p.workflowId} />}
    </section>
  );
}

function SchedulePicker(p: TriggerPanelProps) {
  const id = useId();
  // Custom stays custom while its expression is typed, even when it reads as a simple form for a
  // moment ("0 9 * * 1" on the way to "0 9 * * 1-5"): the field must not vanish under the cursor.
  const [custom, setCustom] = useState(false);
  const parsed = pickOf(p.schedule);
  const pick: Picked = custom ? { ...parsed, frequency: 'custom', cron: p.schedule ?? '' } : parsed;
  const allZones = useMemo(zones, []);
  const set = (patch: Partial<Picked>) => p.onSchedule(cronOf({ ...pick, ...patch }), p.timezone);
  return (
    <div className="wf-picker">
      <div className="field">
        <label htmlFor={`${id}-freq`}>Repeat</label>
        <select
          id={`${id}-freq`}
          value={pick.frequency}
          onChange={(e) => {
            const frequency = e.target.value as Frequency;
            setCustom(frequency === 'custom');
            set(frequency === 'custom' ? { frequency, cron: cronOf(pick) } : { frequency });
          }}
        >
          <option value="daily">Every day</option>
          <option value="weekly">Every week</option>
          <option value="monthly">Every month</option>
          <option value="custom">Custom (cron expression, advanced)</option>
        </select>
      </div>
      {pick.frequency === 'weekly' && (
        <div className="field">
          <label htmlFor={`${id}-dow`}>On</label>
          <select id={`${id}-dow`} value={pick.weekday} onChange={(e) => set({ weekday: Number(e.target.value) })}>
            {WEEKDAYS.map((d, i) => (
              <option key={d} value={i}>
                {d}
              </option>
            ))}
          </select>
        </div>
      )}
      {pick.frequency === 'monthly' && (
        <div className="field">
          <label htmlFor={`${id}-dom`}>On day</label>
          <select id={`${id}-dom`} value={pick.monthday} onChange={(e) => set({ monthday: Number(e.target.value) })}>
            {Array.from({ length: LAST_MONTHDAY }, (_, i) => (
              <option key={i + 1} value={i + 1}>
                {i + 1}
              </option>
            ))}
          </select>
        </div>
      )}
      {pick.frequency === 'custom' ? (
        <div className={`field${p.preview.problem ? ' field-invalid' : ''}`}>
          <label htmlFor={`${id}-cron`}>Cron expression</label>
          <input
            id={`${id}-cron`}
            value={pick.cron}
            placeholder="0 9 * * 1"
            spellCheck={false}
            autoComplete="off"
            aria-invalid={p.preview.problem ? true : undefined}
            aria-describedby={`${id}-cron-hint${p.preview.problem ? ` ${id}-cron-error` : ''}`}
            onChange={(e) => p.onSchedule(e.target.value, p.timezone)}
          />
          <small id={`${id}-cron-hint`} className="hint">
            Minute, hour, day of month, month, day of week: <code>0 9 * * 1</code> is Mondays at 09:00.
          </small>
          {p.preview.problem && (
            <small id={`${id}-cron-error`} className="field-error">
              {p.preview.problem}
            </small>
          )}
        </div>
      ) : (
        <div className="field">
          <label htmlFor={`${id}-time`}>At</label>
          <input id={`${id}-time`} type="time" value={pick.time} required onChange={(e) => e.target.value && set({ time: e.target.value })} />
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-tz`}>Time zone</label>
        <input id={`${id}-tz`} list={`${id}-zones`} value={p.timezone} onChange={(e) => p.onSchedule(cronOf(pick), e.target.value)} autoComplete="off" spellCheck={false} />
        <datalist id={`${id}-zones`}>
          {allZones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      </div>
      <div className="wf-preview" aria-live="polite">
        {p.preview.problem && pick.frequency !== 'custom' ? (
          <p className="field-error">{p.preview.problem}</p>
        ) : p.preview.next ? (
          <>
            <h3>Next runs ({p.timezone})</h3>
            <ol>
              {p.preview.next.map((t) => (
                <li key={t}>
                  <time dateTime={t}>{inZone(t, p.timezone)}</time>
                </li>
              ))}
            </ol>
          </>
        ) : p.preview.error ? (
          <p className="field-error">The next runs could not be worked out just now.</p>
        ) : p.preview.problem ? null : (
          <p className="muted">Working out the next runs…</p>
        )}
      </div>
      <p className="muted">The schedule is saved with the workflow, and runs only while the workflow is active.</p>
    </div>
  );
}

function ApiHelp({ workflowId }: { workflowId: string | null }) {
  if (!workflowId) return <p>Save the workflow first: the address to call names it.</p>;
  const url = `${window.location.origin}/v1/workflows/${workflowId}/runs`;
  // A placeholder, never a key: keys are shown once, on the Keys screen.
  const curl = `curl -X POST '${url}' \\\n  -H 'Authorization: Bearer YOUR_API_KEY' \\\n  -H "Idempotency-Key: $(uuidgen)"`;
  return (
    <div className="wf-api">
      <p>
        An app starts a run with <code>POST {url}</code>, using an API key with the <code>workflows:run</code> scope (owners and admins make one on the <Link to="/keys">API keys</Link> screen). Send a new
        Idempotency-Key with each run: a retry with the same one never starts a second run.
      </p>
      <pre className="wf-curl">
        <code>{curl}</code>
      </pre>
      <CopyButton text={curl} label="Copy the curl example" />
    </div>
  );
}
