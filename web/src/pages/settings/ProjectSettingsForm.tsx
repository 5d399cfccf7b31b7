// One project's settings (docs/architecture.md §12.3): whether texts need the contact's consent,
// and how many automations one contact may be in at once. Owners and admins change them; members
// read them.
import { useId, useState, type FormEvent } from 'react';
import { Field } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { useSaveProjectSettings, type ProjectSettings } from '../../data/settings';

export function ProjectSettingsForm({ project, editable }: { project: ProjectSettings; editable: boolean }) {
  const headingId = useId();
  const consentId = useId();
  const [consent, setConsent] = useState(project.sms_consent_required);
  const [max, setMax] = useState(String(project.max_automations_per_contact));
  const save = useSaveProjectSettings(project.id);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ sms_consent_required: consent, max_automations_per_contact: Number(max) });
  };
  const changed = consent !== project.sms_consent_required || Number(max) !== project.max_automations_per_contact;
  return (
    <section className="settings-project" aria-labelledby={headingId}>
      <h3 id={headingId}>{project.name}</h3>
      <form className="settings-form" onSubmit={submit}>
        <div className="checkbox settings-project-consent">
          <input id={consentId} type="checkbox" checked={consent} disabled={!editable} onChange={(e) => setConsent(e.target.checked)} />
          <label htmlFor={consentId}>Texts only to contacts who agreed to them (SMS consent required)</label>
        </div>
        <Field
          label="Automations per contact"
          hint="How many of this project's automations one contact may be in at once."
          type="number"
          min={1}
          step={1}
          required
          readOnly={!editable}
          value={max}
          onChange={(e) => setMax(e.target.value)}
        />
        {editable && (
          <div className="field">
            <button type="submit" disabled={save.isPending || !changed} aria-label={`Save settings of ${project.name}`}>
              {save.isPending ? 'Saving…' : 'Save'}
            </button>
          </div>
        )}
      </form>
      {save.isSuccess && !changed && <p className="notice notice-ok" role="status">Saved.</p>}
      <ErrorNotice error={save.error} />
    </section>
  );
}
