// A schedule trigger's cron and time zone, with the next five times from the server's own cron
// reader (GET /hub/api/schedule-preview). A server without that route shows the fields only.
import { useQuery } from '@tanstack/react-query';
import { schedulePreviewQuery } from '../../data/automations';
import { useMemo } from 'react';
import { Time } from '../../components/controls';
import { HubError } from '../../lib/api';
import { useDebounced } from '../../lib/useDebounced';
import { Labelled } from './ui';

function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  return intl.supportedValuesOf ? ['UTC', ...intl.supportedValuesOf('timeZone')] : ['UTC'];
}

export function ScheduleTrigger({
  cron,
  timezone,
  onChange,
  errors,
}: {
  cron: string;
  timezone: string;
  onChange: (cron: string, timezone: string) => void;
  errors: { cron?: string; timezone?: string };
}) {
  const zones = useMemo(timeZones, []);
  const settled = useDebounced(JSON.stringify([cron, timezone]), 400);
  const [c, tz] = JSON.parse(settled) as [string, string];
  const preview = useQuery(schedulePreviewQuery(c, tz));
  const err = preview.error instanceof HubError ? preview.error : null;
  const missing = err?.status === 404;
  const cronError = errors.cron ?? (err && !missing && err.param !== 'timezone' ? err.message : undefined);
  const tzError = errors.timezone ?? (err?.param === 'timezone' ? err.message : undefined);
  return (
    <div className="schedule">
      <Labelled label="Cron schedule" help="Five fields: minute hour day-of-month month day-of-week, such as 0 9 * * 1 (Mondays at 9:00)." error={cronError}>
        {(a) => <input {...a} className="mono" value={cron} maxLength={200} spellCheck={false} onChange={(e) => onChange(e.target.value, timezone)} />}
      </Labelled>
      <Labelled label="Time zone" error={tzError}>
        {(a) => (
          <select {...a} value={timezone} onChange={(e) => onChange(cron, e.target.value)}>
            {!zones.includes(timezone) && <option value={timezone}>{timezone}</option>}
            {zones.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      {preview.data && preview.data.next.length > 0 && (
        <div className="builder-schedule-next">
          <p className="hint">Next times:</p>
          <ol aria-label="The schedule's next five times">
            {preview.data.next.map((t) => (
              <li key={t}>
                <Time iso={t} />
              </li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}
