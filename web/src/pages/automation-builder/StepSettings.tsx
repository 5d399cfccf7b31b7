// A step's settings form, generated from the step's schema (STEP_SCHEMAS[type].fields: the same
// declarations the server checks at publish): a text or template box per text field, a number,
// a choice; the wait's one-of (duration or until) and the branch's condition have their own
// controls. Email and text steps add their preview and the text's size and price.
import { STEP_SCHEMAS } from '@domain/step-schemas';
import type { ConfigField } from '@domain/config-schema';
import { ConditionFields } from './ConditionFields';
import { Labelled } from './ui';
import { MessagePreview, SmsInfo } from './MessagePreview';
import { placeholdersFor, TemplateText } from './TemplateText';
import type { Condition, Step } from '../../data/automations';
import { WaitSettings } from './WaitSettings';
import { FIELD_WORDS } from './words';

export interface StepContext {
  /** Ids of the AI steps before this one (their text is {{steps.<id>.text}}). */
  earlierAi: string[];
  microsPerSegment: number;
  consentRequired: boolean;
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
}

function GeneratedField({ f, step, set, issue, ctx }: { f: ConfigField; step: Step; set: (name: string, v: unknown) => void; issue: (field: string) => string | undefined; ctx: StepContext }) {
  const v = step.config[f.name];
  // The server's problem is already in words with the field's label ("Fill in the subject").
  const error = issue(`config.${f.name}`);
  switch (f.type) {
    case 'text':
      return (
        <TemplateText
          label={f.label}
          help={f.help ?? (f.nullable ? 'Leave empty to clear the field.' : undefined)}
          value={text(v)}
          onChange={(x) => set(f.name, x)}
          multiline={f.multiline}
          maxLength={f.maxLength}
          placeholders={f.placeholders === 'contact' ? placeholdersFor(ctx.earlierAi) : null}
          error={error}
          rows={f.name === 'body' && step.type === 'email.send' ? 10 : 5}
        />
      );
    case 'integer':
      return (
        <Labelled label={f.label} help={f.help ?? (f.default !== undefined ? `${f.default} when left empty.` : undefined)} error={error}>
          {(a) => (
            <input
              {...a}
              type="number"
              min={f.min}
              max={f.max}
              step={1}
              value={typeof v === 'number' ? v : ''}
              onChange={(e) => set(f.name, e.target.value === '' ? undefined : Number(e.target.value))}
            />
          )}
        </Labelled>
      );
    case 'choice':
      return (
        <Labelled label={f.label} help={f.help} error={error}>
          {(a) => (
            <select {...a} value={text(v)} onChange={(e) => set(f.name, e.target.value)}>
              {!f.options.includes(text(v)) && <option value={text(v)}>Choose…</option>}
              {f.options.map((o) => (
                <option key={o} value={o}>
                  {FIELD_WORDS[o as keyof typeof FIELD_WORDS] ?? o}
                </option>
              ))}
            </select>
          )}
        </Labelled>
      );
    case 'json':
      return (
        <Labelled label={f.label} help={f.help ?? 'JSON, or plain text.'} error={error}>
          {(a) => (
            <input
              {...a}
              value={typeof v === 'string' ? v : JSON.stringify(v ?? '')}
              onChange={(e) => {
                try {
                  set(f.name, JSON.parse(e.target.value));
                } catch {
                  set(f.name, e.target.value);
                }
              }}
            />
          )}
        </Labelled>
      );
    default:
      // url, item, duration, datetime: typed as text (no step uses them outside the wait's own controls).
      return (
        <Labelled label={f.label} help={f.help} error={error}>
          {(a) => <input {...a} value={text(v)} onChange={(e) => set(f.name, e.target.value || undefined)} />}
        </Labelled>
      );
  }
}

export function StepSettings({ step, onChange, issue, ctx }: { step: Step; onChange: (s: Step) => void; issue: (field: string) => string | undefined; ctx: StepContext }) {
  const schema = STEP_SCHEMAS[step.type];
  const setConfig = (config: Record<string, unknown>) => onChange({ ...step, config });
  const set = (name: string, v: unknown) => {
    const config = { ...step.config };
    if (v === undefined) delete config[name];
    else config[name] = v;
    setConfig(config);
  };
  let fields;
  if (step.type === 'wait') fields = <WaitSettings config={step.config} onChange={setConfig} error={issue} />;
  else if (step.type === 'branch')
    fields = (
      <ConditionFields
        condition={step.config as unknown as Condition}
        onChange={(c) => setConfig({ ...c })}
        errors={(k) => issue(`config.${k}`) ?? (k === 'field' ? issue('config') : undefined)}
        context={step.name}
      />
    );
  else fields = schema.fields.map((f) => <GeneratedField key={f.name} f={f} step={step} set={set} issue={issue} ctx={ctx} />);
  return (
    <div className="step-settings">
      <Labelled label="Step name" error={issue('name')}>
        {(a) => <input {...a} value={step.name} maxLength={200} onChange={(e) => onChange({ ...step, name: e.target.value })} />}
      </Labelled>
      {fields}
      {step.type !== 'wait' && step.type !== 'branch' && issue('config') && <p className="field-error">{issue('config')}</p>}
      {step.type === 'sms.send' && <SmsInfo text={text(step.config.body)} microsPerSegment={ctx.microsPerSegment} consentRequired={ctx.consentRequired} />}
      {step.type === 'email.send' && <MessagePreview channel="email" subject={text(step.config.subject)} body={text(step.config.body)} stepName={step.name} />}
      {step.type === 'sms.send' && <MessagePreview channel="sms" body={text(step.config.body)} stepName={step.name} />}
    </div>
  );
}
