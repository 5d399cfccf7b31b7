// The automation's settings that are not steps: re-enrollment (saved with the draft, published
// with it), and the project's rules it runs under (how many of the project's automations a
// contact may be in at once, whether texts need consent), changed in Settings by owners and admins.
import { useId } from 'react';
import { Link } from 'react-router';
import { REENROLL_RULES } from '@domain/automation';
import { isAdmin, useSession } from '../../lib/session';
import { Labelled } from './ui';
import type { Definition, ProjectFacts } from '../../data/automations';
import { REENROLL_WORDS } from './words';

type Reenroll = Definition['reenroll'];

export function SettingsCard({ reenroll, onReenroll, project, error }: { reenroll: Reenroll; onReenroll: (r: Reenroll) => void; project: ProjectFacts; error?: string }) {
  const headingId = useId();
  const admin = isAdmin(useSession());
  const max = project.max_automations_per_contact;
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>Settings</h2>
      <Labelled label="Enroll a contact again" help="Whether a contact who went through it before can go through it again; never twice at the same time." error={error}>
        {(a) => (
          <select {...a} value={reenroll} onChange={(e) => onReenroll(e.target.value as Reenroll)}>
            {REENROLL_RULES.map((r) => (
              <option key={r} value={r}>
                {REENROLL_WORDS[r]}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      <h3 className="builder-small-heading">Project {project.name}</h3>
      <ul className="builder-facts-list">
        <li>
          A contact may be in at most <strong>{max}</strong> of this project&apos;s automations at once; beyond that, a trigger skips them.
        </li>
        <li>{project.sms_consent_required ? 'Texts go only to contacts who agreed to them (SMS consent required).' : 'Texts do not need SMS consent in this project.'}</li>
      </ul>
      {admin ? (
        <p>
          <Link to="/settings">Change the project&apos;s settings</Link>
        </p>
      ) : (
        <p className="hint">Owners and admins change these in Settings.</p>
      )}
    </section>
  );
}
