// A template setting (an email's subject and body, a text, a prompt…): the text box, and the
// fields the template may name as buttons that insert {{field}} where the cursor is. The names
// are the domain's TEMPLATE_FIELDS and the text of earlier AI steps ({{steps.<id>.text}}).
import { TEMPLATE_FIELDS } from '@domain/step-schemas';
import { useRef } from 'react';
import { Labelled } from './ui';

export function TemplateText({
  label,
  value,
  onChange,
  multiline,
  maxLength,
  placeholders,
  error,
  help,
  rows = 6,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  multiline: boolean;
  maxLength: number;
  /** The names offered as {{…}}; none = not a template. */
  placeholders: readonly string[] | null;
  error?: string;
  help?: string;
  rows?: number;
}) {
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const insert = (name: string) => {
    const el = ref.current;
    const token = `{{${name}}}`;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    const next = value.slice(0, start) + token + value.slice(end);
    // Back to the text at once, the cursor after what was inserted: the element gets the new value
    // now (React then finds it unchanged), so nothing runs later and takes the focus from elsewhere.
    if (el) {
      el.value = next;
      el.focus();
      el.setSelectionRange(start + token.length, start + token.length);
    }
    onChange(next);
  };
  return (
    <div className="template-text">
      <Labelled label={label} help={help} error={error} wide>
        {(a) =>
          multiline ? (
            <textarea {...a} ref={ref} value={value} rows={rows} maxLength={maxLength} spellCheck onChange={(e) => onChange(e.target.value)} />
          ) : (
            <input {...a} ref={ref} value={value} maxLength={maxLength} onChange={(e) => onChange(e.target.value)} />
          )
        }
      </Labelled>
      {placeholders && placeholders.length > 0 && (
        <div className="builder-template-fields" role="group" aria-label={`Insert a field into ${label}`}>
          <span className="hint" aria-hidden="true">
            Insert:
          </span>
          {placeholders.map((p) => (
            <button key={p} type="button" className="builder-chip" onClick={() => insert(p)}>
              {`{{${p}}}`}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** What a template of this step may name: the contact's fields, then the text of the AI steps before it. */
export function placeholdersFor(earlierAiSteps: readonly string[]): string[] {
  return [...TEMPLATE_FIELDS, ...earlierAiSteps.map((id) => `steps.${id}.text`)];
}
