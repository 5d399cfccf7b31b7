// The builder's small controls: a labelled field with its help and the server's error tied to it
// (aria-describedby). Its modal (the publish review, a version's read-only view) is
// components/automations/Modal.tsx, since the automation's page opens the publish review too.
import { useId, type ReactNode } from 'react';

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
    <div className={wide ? 'field builder-field-wide' : 'field'}>
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
