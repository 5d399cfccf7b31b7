// A block's settings form, generated from its kind's declaration in BLOCK_SCHEMAS — the same one
// the server validates with: each field's label, help, required mark and length limit come from
// there. Template fields list the placeholders they may use (the blocks feeding this one) as
// buttons that insert `{{id}}` at the cursor. A field with a problem shows it, as the user edits.
import { useId, useRef, type ReactNode } from 'react';
import type { ConfigField } from '@domain/config-schema';
import { ItemPicker } from './ItemPicker';
import { BLOCK_SCHEMAS, type BlockDef } from './model';

interface FieldProps {
  field: ConfigField;
  value: unknown;
  onChange: (v: unknown) => void;
  /** What is wrong with the field now, in words. */
  error?: string;
  /** The ids a template field may name. */
  inputs: string[];
}

/** Label, control, help, error: the frame every generated field shares, wired for screen readers. */
function Frame({ field, error, children, id }: { field: ConfigField; error?: string; id: string; children: ReactNode }) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>
        {field.label}
        {field.required ? '' : <span className="muted"> (optional)</span>}
      </label>
      {children}
      {field.help && (
        <small id={`${id}-help`} className="hint">
          {field.help}
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

function TextField({ field, value, onChange, error, inputs }: FieldProps & { field: Extract<ConfigField, { type: 'text' }> }) {
  const id = useId();
  const ref = useRef<HTMLTextAreaElement & HTMLInputElement>(null);
  const text = typeof value === 'string' ? value : '';
  const insert = (name: string) => {
    const el = ref.current;
    const at = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? at;
    const token = `{{${name}}}`;
    onChange(text.slice(0, at) + token + text.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + token.length, at + token.length);
    });
  };
  const props = {
    id,
    ref,
    value: text,
    required: field.required && !field.allowEmpty,
    maxLength: field.maxLength,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [field.help && `${id}-help`, error && `${id}-error`, field.placeholders && `${id}-ph`].filter(Boolean).join(' ') || undefined,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
  };
  return (
    <Frame field={field} error={error} id={id}>
      {field.multiline ? <textarea rows={5} {...props} /> : <input type="text" {...props} />}
      {field.placeholders === 'blocks' && (
        <div className="wf-placeholders" id={`${id}-ph`}>
          {inputs.length ? (
            <>
              <span className="muted">Placeholders:</span>
              {inputs.map((name) => (
                <button key={name} type="button" className="button-secondary wf-chip" onClick={() => insert(name)} aria-label={`Insert {{${name}}} into ${field.label}`}>
                  {`{{${name}}}`}
                </button>
              ))}
            </>
          ) : (
            <span className="muted">No placeholders yet: connect a block to this one to name it here.</span>
          )}
        </div>
      )}
    </Frame>
  );
}

function OtherField({ field, value, onChange, error }: FieldProps) {
  const id = useId();
  const described = [field.help && `${id}-help`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const common = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described, required: field.required };
  let control: ReactNode;
  switch (field.type) {
    case 'integer':
      control = (
        <input
          type="number"
          inputMode="numeric"
          min={field.min}
          max={field.max}
          step={1}
          value={typeof value === 'number' ? value : ''}
          placeholder={field.default !== undefined ? String(field.default) : undefined}
          onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
          {...common}
        />
      );
      break;
    case 'url':
      control = <input type="url" maxLength={field.maxLength} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} placeholder="https://" {...common} />;
      break;
    case 'item':
      return <ItemPicker label={field.label} value={typeof value === 'string' ? value : ''} onChange={onChange} error={error} />;
    case 'choice':
      control = (
        <select value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value || undefined)} {...common}>
          <option value="">Choose…</option>
          {field.options.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      );
      break;
    default:
      // duration, datetime, json: typed as text; the server's validator has the last word.
      control = <input type="text" value={typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value)} onChange={(e) => onChange(e.target.value || undefined)} {...common} />;
  }
  return (
    <Frame field={field} error={error} id={id}>
      {control}
    </Frame>
  );
}

export function ConfigForm({ block, inputs, errorOf, onChange }: { block: BlockDef; inputs: string[]; errorOf: (field: string) => string | undefined; onChange: (name: string, v: unknown) => void }) {
  return (
    <>
      {BLOCK_SCHEMAS[block.kind].fields.map((f) => {
        const props: FieldProps = { field: f, value: block.config[f.name], onChange: (v) => onChange(f.name, v), error: errorOf(f.name), inputs };
        return f.type === 'text' ? <TextField key={f.name} {...props} field={f} /> : <OtherField key={f.name} {...props} />;
      })}
    </>
  );
}
