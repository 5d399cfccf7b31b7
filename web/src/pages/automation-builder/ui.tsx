// The builder's small controls: a labelled field with its help and the server's error tied to it
// (aria-describedby), and a modal for dialogs that carry more than a question (the publish review,
// a version's read-only view): the native <dialog>, which traps focus and closes on Escape.
import { useEffect, useId, useRef, type ReactNode } from 'react';

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <small id={id} className="field-error">
      {message}
    </small>
  );
}

/** A labelled control with help and error; `children` gets the control's id and its described-by. */
export function Labelled({
  label,
  help,
  error,
  children,
  wide,
}: {
  label: string;
  help?: ReactNode;
  error?: string;
  wide?: boolean;
  children: (a: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ReactNode;
}) {
  const id = useId();
  const described = [help ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={wide ? 'field field-wide' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined })}
      {help && (
        <small id={`${id}-help`} className="hint">
          {help}
        </small>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function Modal({ open, title, onClose, children, wide }: { open: boolean; title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    else if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className={wide ? 'dialog dialog-wide' : 'dialog'}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {open && children}
    </dialog>
  );
}
