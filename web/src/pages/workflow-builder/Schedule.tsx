// The workflow's schedule: a cron expression and a time zone, with the next five times it would
// fire (GET /hub/api/schedule-preview, asked once the typing pauses) in the user's own locale and
// zone. A saved workflow saves or clears its schedule on its own (PUT …/schedule); a new one
// carries it in its first save.
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { ErrorNotice } from '../../components/states';
import { schedulePreviewQuery } from '../../data/workflows';
import { HubError } from '../../lib/api';
import { useDebounced } from '../../lib/useDebounced';

function zones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  return intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : ['UTC'];
}

const when = (iso: string): string => new Date(iso).toLocaleString(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit' });

export interface ScheduleProps {
  schedule: string | null;
  timezone: string;
  onChange: (schedule: string | null, timezone: string) => void;
  /** Saving on its own: present once the workflow exists. */
  onSave?: () => void;
  onClear?: () => void;
  saving: boolean;
  /** Whether the schedule differs from the saved one, and whether one is saved. */
  changed: boolean;
  saved: boolean;
  error?: string;
  saveError: unknown;
}

export function Schedule(p: ScheduleProps) {
  const id = useId();
  const cron = p.schedule ?? '';
  const allZones = useMemo(zones, []);
  const settled = useDebounced({ cron: cron.trim(), timezone: p.timezone.trim() }, 400);
  const preview = useQuery(schedulePreviewQuery(settled.cron, settled.timezone));
  // Typing not yet settled: the last answer is about an older expression, so none is shown.
  const pending = settled.cron !== cron.trim() || settled.timezone !== p.timezone.trim();
  const previewError = !pending && preview.error instanceof HubError && preview.error.code === 'invalid_field' ? preview.error.message : null;
  return (
    <section className="card wf-schedule" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Schedule</h2>
      <p className="muted">While the workflow is active it also runs on this schedule (a draft or paused workflow does not). Leave the cron expression empty for no schedule.</p>
      <div className="wf-row">
        <div className={`field${p.error ? ' field-invalid' : ''}`}>
          <label htmlFor={`${id}-cron`}>Cron expression</label>
          <input
            id={`${id}-cron`}
            value={cron}
            placeholder="0 9 * * 1"
            spellCheck={false}
            autoComplete="off"
            aria-invalid={p.error || previewError ? true : undefined}
            aria-describedby={`${id}-cron-hint${p.error ? ` ${id}-cron-error` : ''}`}
            onChange={(e) => p.onChange(e.target.value === '' ? null : e.target.value, p.timezone)}
          />
          <small id={`${id}-cron-hint`} className="hint">
            Minute, hour, day of month, month, day of week: <code>0 9 * * 1</code> is Mondays at 9:00.
          </small>
          {p.error && (
            <small id={`${id}-cron-error`} className="field-error">
              {p.error}
            </small>
          )}
        </div>
        <div className="field">
          <label htmlFor={`${id}-tz`}>Time zone</label>
          <input id={`${id}-tz`} list={`${id}-zones`} value={p.timezone} onChange={(e) => p.onChange(p.schedule, e.target.value)} autoComplete="off" spellCheck={false} />
          <datalist id={`${id}-zones`}>
            {allZones.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
        </div>
      </div>
      {cron.trim() !== '' && (
        <div className="wf-preview" aria-live="polite">
          {previewError && !p.error ? (
            <p className="field-error">{previewError}</p>
          ) : !pending && preview.data ? (
            <>
              <h3>Next five runs (your local time)</h3>
              <ol>
                {preview.data.next.map((t) => (
                  <li key={t}>
                    <time dateTime={t}>{when(t)}</time>
                  </li>
                ))}
              </ol>
            </>
          ) : !pending && preview.error ? (
            <ErrorNotice error={preview.error} />
          ) : (
            <p className="muted">Working out the next runs…</p>
          )}
        </div>
      )}
      {p.onSave ? (
        <div className="actions">
          <button type="button" onClick={p.onSave} disabled={p.saving || !p.changed}>
            Save schedule
          </button>
          <button type="button" className="button-secondary" onClick={p.onClear} disabled={p.saving || !p.saved}>
            Clear schedule
          </button>
        </div>
      ) : (
        <p className="muted">The schedule is saved with the workflow.</p>
      )}
      <ErrorNotice error={p.saveError} />
    </section>
  );
}
