// A wait's settings: for a while (friendly presets, or any ISO 8601 duration) or until a date and
// time; exactly one of the two, as the step schema's oneOf says.
import { useId, useState } from 'react';
import { STEP_SCHEMAS } from '@domain/step-schemas';
import { Labelled } from './ui';
import { WAIT_PRESETS } from './words';

/** A wait field's label and help, as the step's schema (src/domain) declares them. */
function waitField(name: string) {
  const field = STEP_SCHEMAS.wait.fields.find((f) => f.name === name);
  if (!field) throw new Error(`the wait step declares no field ${name}`);
  return field;
}
const FIELDS = { duration: waitField('duration'), until: waitField('until') };

/** An ISO time as a datetime-local input's value, in the browser's zone. */
function localInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const off = d.getTimezoneOffset() * 60_000;
  return new Date(d.getTime() - off).toISOString().slice(0, 16);
}

export function WaitSettings({
  config,
  onChange,
  error,
}: {
  config: Record<string, unknown>;
  onChange: (c: Record<string, unknown>) => void;
  error: (field: string) => string | undefined;
}) {
  const mode = typeof config.until === 'string' ? 'until' : 'duration';
  const duration = typeof config.duration === 'string' ? config.duration : '';
  const preset = WAIT_PRESETS.some(([d]) => d === duration);
  const [custom, setCustom] = useState(!preset && duration !== '');
  const radio = useId();
  return (
    <div className="builder-wait-settings">
      <fieldset>
        <legend>How long to wait</legend>
        <div className="checkbox">
          <input type="radio" id={`${radio}-duration`} name={radio} checked={mode === 'duration'} onChange={() => onChange({ duration: duration || 'P1D' })} />
          <label htmlFor={`${radio}-duration`}>For a while</label>
        </div>
        <div className="checkbox">
          <input
            type="radio"
            id={`${radio}-until`}
            name={radio}
            checked={mode === 'until'}
            onChange={() => onChange({ until: new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z') })}
          />
          <label htmlFor={`${radio}-until`}>Until a date and time</label>
        </div>
      </fieldset>
      {mode === 'duration' ? (
        <>
          <Labelled label="Wait for" error={custom ? undefined : error('config.duration')}>
            {(a) => (
              <select
                {...a}
                value={custom || !preset ? 'custom' : duration}
                onChange={(e) => {
                  if (e.target.value === 'custom') setCustom(true);
                  else {
                    setCustom(false);
                    onChange({ duration: e.target.value });
                  }
                }}
              >
                {WAIT_PRESETS.map(([d, words]) => (
                  <option key={d} value={d}>
                    {words}
                  </option>
                ))}
                <option value="custom">Another duration…</option>
              </select>
            )}
          </Labelled>
          {(custom || !preset) && (
            <Labelled label={FIELDS.duration.label} help={FIELDS.duration.help} error={error('config.duration')}>
              {(a) => <input {...a} className="mono" value={duration} maxLength={40} onChange={(e) => onChange({ duration: e.target.value })} />}
            </Labelled>
          )}
        </>
      ) : (
        <Labelled label={FIELDS.until.label} help={`In your time zone (${Intl.DateTimeFormat().resolvedOptions().timeZone}).`} error={error('config.until')}>
          {(a) => (
            <input
              {...a}
              type="datetime-local"
              value={localInput(String(config.until))}
              onChange={(e) => {
                const d = new Date(e.target.value);
                if (!Number.isNaN(d.getTime())) onChange({ until: d.toISOString().replace(/\.\d+Z$/, 'Z') });
              }}
            />
          )}
        </Labelled>
      )}
      {error('config') && <p className="field-error">{error('config')}</p>}
    </div>
  );
}
