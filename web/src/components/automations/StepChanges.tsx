// What changed inside one step, for the publish dialog: each changed setting with its old and
// new value, and the name, type, next step and branch targets in words. The differences come from
// the domain's stepFieldChanges over the diff's before/after steps; this file only words them.
import { stepFieldChanges, type StepFieldChange } from '@domain/automation-diff';
import { STEP_SCHEMAS } from '@domain/step-schemas';
import type { Step } from '../../data/automations';

/** Longer values (an email body) are cut in the line and shown whole on request. */
const INLINE_MAX = 60;

function Value({ v, names }: { v: unknown; names?: Map<string, string> }) {
  if (v === undefined || v === null || v === '') return <span className="muted">(none)</span>;
  if (names && typeof v === 'string') return <>{names.get(v) ?? v}</>;
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  if (text.length <= INLINE_MAX && !text.includes('\n')) return <q>{text}</q>;
  return (
    <details className="automations-diff-value">
      <summary>
        <q>{text.slice(0, INLINE_MAX).replace(/\s+/g, ' ')}…</q>
      </summary>
      <pre>{text}</pre>
    </details>
  );
}

function label(c: StepFieldChange, type: Step['type']): string {
  switch (c.part) {
    case 'config':
      return STEP_SCHEMAS[type]?.fields.find((f) => f.name === c.key)?.label ?? c.key ?? 'settings';
    case 'branches':
      return `Branch “${c.key}” goes to`;
    case 'next':
      return 'Then goes to';
    case 'name':
      return 'Name';
    case 'type':
      return 'Type';
  }
}

/** `names`: step id → step name, for next and branch targets (an unknown id is shown as it is). */
export function StepChanges({ before, after, names }: { before: Step; after: Step; names: Map<string, string> }) {
  const changes = stepFieldChanges(before, after);
  const typeLabel = (t: unknown) => (typeof t === 'string' ? (STEP_SCHEMAS[t as Step['type']]?.label ?? t) : t);
  return (
    <ul className="automations-diff-fields" aria-label={`Changes to ${after.name}`}>
      {changes.map((c) => {
        const targets = c.part === 'next' || c.part === 'branches' ? names : undefined;
        const [b, a] = c.part === 'type' ? [typeLabel(c.before), typeLabel(c.after)] : [c.before, c.after];
        return (
          <li key={`${c.part}.${c.key ?? ''}`}>
            {label(c, after.type)}: <Value v={b} names={targets} /> → <Value v={a} names={targets} />
          </li>
        );
      })}
    </ul>
  );
}
