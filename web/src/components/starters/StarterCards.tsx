// "Start from a template": a card per starter (src/domain/starters.ts) with what it makes and one
// button. Using one creates a draft in the chosen project (the caller's `use`), which then opens
// in its builder; nothing is published, activated or run.
import { useId } from 'react';
import { ErrorNotice } from '../states';
import './starters.css';

export interface StarterCard {
  id: string;
  title: string;
  summary: string;
}

export function StarterCards({
  starters,
  use,
  pending,
  error,
  disabled,
}: {
  starters: readonly StarterCard[];
  use: (id: string) => void;
  /** The starter being created now (its button says so; the others wait). */
  pending: string | null;
  error: unknown;
  /** No project chosen yet. */
  disabled: boolean;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="starters">
      <h2 id={headingId}>Start from a template</h2>
      <p className="hint">Each makes a draft you can change before it ever runs.</p>
      <ErrorNotice error={error} />
      <ul className="starters-cards">
        {starters.map((s) => (
          <li key={s.id} className="card starters-card">
            <h3>{s.title}</h3>
            <p>{s.summary}</p>
            <button type="button" disabled={disabled || pending !== null} onClick={() => use(s.id)} aria-label={`Use this template: ${s.title}`}>
              {pending === s.id ? 'Creating…' : 'Use this template'}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
