// A condition on a contact field (field, test, value), for a branch step and the Run-only-if
// filter: the fields and tests are the domain's CONDITION_FIELDS and CONDITION_OPS; the value is
// a yes/no for the contact's flags, one of the known values (lifecycle stage, SMS consent), a
// comma-separated list for "is one of", none for "is set".
import { CONDITION_FIELDS, CONDITION_OPS } from '@domain/step-schemas';
import { BOOLEAN_FIELDS, FIELD_CHOICES, FIELD_WORDS, LIST_OPS, MAIN_OPS, NO_VALUE_OPS, OP_WORDS } from './words';
import { Labelled } from './ui';
import type { Condition } from '../../data/automations';

function valueText(v: unknown): string {
  if (Array.isArray(v)) return v.map(String).join(', ');
  if (v === null || v === undefined) return '';
  return String(v);
}

/** The value as the op wants it: a list for in/not_in, nothing for set/empty, a boolean for a flag. */
function valueFor(field: string, op: string, v: unknown): unknown {
  if (NO_VALUE_OPS.has(op)) return undefined;
  if (LIST_OPS.has(op)) return Array.isArray(v) ? v : valueText(v).split(',').map((s) => s.trim()).filter(Boolean);
  if (BOOLEAN_FIELDS.has(field)) return v === true || v === 'true';
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}

export function ConditionFields({
  condition,
  onChange,
  errors,
  context,
}: {
  condition: Condition;
  onChange: (c: Condition) => void;
  /** Messages by key (field, op, value) from the server. */
  errors: (key: 'field' | 'op' | 'value') => string | undefined;
  /** Names the controls when two conditions are on screen (e.g. "Run only if"). */
  context: string;
}) {
  const op = condition.op ?? 'eq';
  const choices = FIELD_CHOICES[condition.field as keyof typeof FIELD_CHOICES];
  const ops = (CONDITION_OPS as readonly string[]).filter((o) => (MAIN_OPS as readonly string[]).includes(o) || o === op);
  const set = (c: Condition) => {
    const out: Condition = { field: c.field, op: c.op ?? 'eq' };
    const value = valueFor(c.field, out.op!, c.value);
    if (value !== undefined) out.value = value;
    onChange(out);
  };
  return (
    <div className="builder-condition" role="group" aria-label={`${context} condition`}>
      <Labelled label={`${context}: contact field`} error={errors('field')}>
        {(a) => (
          <select {...a} value={condition.field} onChange={(e) => set({ ...condition, field: e.target.value })}>
            {!(CONDITION_FIELDS as readonly string[]).includes(condition.field) && <option value={condition.field}>Choose a field</option>}
            {CONDITION_FIELDS.map((f) => (
              <option key={f} value={f}>
                {FIELD_WORDS[f]}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      <Labelled label={`${context}: test`} error={errors('op')}>
        {(a) => (
          <select {...a} value={op} onChange={(e) => set({ ...condition, op: e.target.value })}>
            {ops.map((o) => (
              <option key={o} value={o}>
                {OP_WORDS[o as keyof typeof OP_WORDS]}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      {!NO_VALUE_OPS.has(op) &&
        (BOOLEAN_FIELDS.has(condition.field) && !LIST_OPS.has(op) ? (
          <Labelled label={`${context}: value`} error={errors('value')}>
            {(a) => (
              <select {...a} value={String(condition.value === true || condition.value === 'true')} onChange={(e) => set({ ...condition, value: e.target.value === 'true' })}>
                <option value="true">yes</option>
                <option value="false">no</option>
              </select>
            )}
          </Labelled>
        ) : choices && !LIST_OPS.has(op) ? (
          <Labelled label={`${context}: value`} error={errors('value')}>
            {(a) => (
              <select {...a} value={valueText(condition.value)} onChange={(e) => set({ ...condition, value: e.target.value })}>
                {!choices.includes(valueText(condition.value)) && <option value={valueText(condition.value)}>Choose…</option>}
                {choices.map((c) => (
                  <option key={c} value={c}>
                    {c.replace(/_/g, ' ')}
                  </option>
                ))}
              </select>
            )}
          </Labelled>
        ) : (
          <Labelled label={`${context}: value`} help={LIST_OPS.has(op) ? 'Separate the values with commas.' : undefined} error={errors('value')}>
            {(a) => (
              <input
                {...a}
                value={valueText(condition.value)}
                maxLength={500}
                onChange={(e) => onChange({ ...condition, op, value: LIST_OPS.has(op) ? e.target.value.split(',').map((s) => s.trimStart()) : e.target.value })}
              />
            )}
          </Labelled>
        ))}
    </div>
  );
}
