// An entry's raw record, for whoever needs the exact values (an id to quote, a cap in micros): the
// action's code, the object's id and the detail, folded away behind "Details".
import type { AuditEntry } from '../../data/audit';

function show(v: unknown): string {
  if (v && typeof v === 'object' && 'from' in v && 'to' in v) {
    return `${show(v.from)} → ${show(v.to)}`;
  }
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export function Detail({ entry }: { entry: AuditEntry }) {
  return (
    <details className="audit-raw">
      <summary>
        Details<span className="visually-hidden"> of this entry</span>
      </summary>
      <dl>
        <dt>Action</dt>
        <dd>
          <code>{entry.action}</code>
        </dd>
        <dt>Object</dt>
        <dd>
          {entry.object.kind} <code>{entry.object.id}</code>
        </dd>
        {Object.entries(entry.detail).map(([k, v]) => (
          <div key={k}>
            <dt>{k.replace(/_/g, ' ')}</dt>
            <dd>{show(v)}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
