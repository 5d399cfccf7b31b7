// Small controls with their accessible names built in: a labelled field, a copy button, a confirm
// dialog (the native <dialog>, which traps focus and closes on Escape). Lists and their pager are in
// components/list.
import { useEffect, useId, useRef, useState, type InputHTMLAttributes, type ReactNode } from 'react';

/** `error`: a refusal put on this field (lib/error-words.ts fieldError), read out with it. */
export function Field({ label, hint, error, ...input }: { label: string; hint?: string; error?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={described} {...input} {...(error ? { 'aria-invalid': true } : {})} />
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

export function Select({ label, value, onChange, options }: { label: string; value: string; onChange: (v: string) => void; options: readonly (readonly [string, string])[] }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A small form's buttons: submit (saying it is working while the write is pending) and, when the form can be left, Cancel. */
export function FormButtons({ label, busyLabel, busy, disabled = false, onCancel }: { label: string; busyLabel: string; busy: boolean; disabled?: boolean; onCancel?: () => void }) {
  return (
    <div className="actions">
      <button type="submit" disabled={busy || disabled}>
        {busy ? busyLabel : label}
      </button>
      {onCancel && (
        <button type="button" className="button-secondary" onClick={onCancel}>
          Cancel
        </button>
      )}
    </div>
  );
}

/**
 * An edit form's foot: "Saved." once what was changed is stored, then Save and Discard (enabled
 * while something is changed) and any further buttons of the form.
 */
export function SaveBar({ dirty, busy, saved, onDiscard, children }: { dirty: boolean; busy: boolean; saved: boolean; onDiscard: () => void; children?: ReactNode }) {
  return (
    <>
      {saved && !dirty && (
        <p className="notice notice-ok" role="status">
          Saved.
        </p>
      )}
      <div className="actions">
        <button type="submit" disabled={!dirty || busy}>
          {busy ? 'Saving…' : 'Save changes'}
        </button>
        <button type="button" className="button-secondary" disabled={!dirty} onClick={onDiscard}>
          Discard changes
        </button>
        {children}
      </div>
    </>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      className="button-secondary"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => setDone(true));
      }}
    >
      {done ? 'Copied' : label}
    </button>
  );
}

/** A modal confirmation; `confirmText` set = the user must type it (erasure). */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  confirmText,
  danger,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  confirmText?: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      setTyped('');
      d.showModal();
    } else if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onCancel={onCancel} className="dialog">
      <h2 id={titleId}>{title}</h2>
      {children}
      {confirmText && <Field label={`Type ${confirmText} to confirm`} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />}
      <div className="actions">
        <button type="button" className="button-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className={danger ? 'button-danger' : undefined} disabled={confirmText !== undefined && typed !== confirmText} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/** A time as the user's locale shows it, with the exact ISO time on hover. */
export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">—</span>;
  return <time dateTime={iso} title={iso}>{new Date(iso).toLocaleString()}</time>;
}

/** `label`: the status in the API's own words (a run's status_label), shown instead of the raw status. */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return <span className={`badge badge-${status.replace(/[^a-z_]/g, '')}`}>{label ?? status.replace(/_/g, ' ')}</span>;
}
