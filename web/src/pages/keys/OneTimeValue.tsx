// A new key's value, shown once (after create or roll): the server keeps only its hash, so this
// is the one chance to copy it. Dismissed with Done; a reload loses it on purpose.
import { CopyButton } from '../../components/controls';

export function OneTimeValue({ title, value, note, onDone }: { title: string; value: string; note?: string; onDone: () => void }) {
  return (
    <section className="card key-value" aria-labelledby="key-value-title">
      <h2 id="key-value-title">{title}</h2>
      <p className="notice notice-warn" role="note">
        Copy this key now: it will not be shown again. Store it where your servers read secrets.
      </p>
      {note && <p>{note}</p>}
      <p className="key-value-row">
        <code aria-label="New API key value" className="key-secret">
          {value}
        </code>
        <CopyButton text={value} label="Copy key" />
      </p>
      <div className="actions">
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
