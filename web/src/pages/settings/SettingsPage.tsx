// Account → Settings: the name and each project's settings (owners and admins change them,
// members read them), and the plan and limits the operator sets.
import { useQuery } from '@tanstack/react-query';
import { Empty, QueryState } from '../../components/states';
import { settingsQuery } from '../../data/settings';
import { isAdmin, useSession } from '../../lib/session';
import { AccountNameForm } from './AccountNameForm';
import { OperatorFacts } from './OperatorFacts';
import { ProjectSettingsForm } from './ProjectSettingsForm';
import { ProvidersCard } from './ProvidersCard';
import './settings.css';
import { PageHeader } from '../../components/PageHeader';

export default function SettingsPage() {
  const editable = isAdmin(useSession());
  const q = useQuery(settingsQuery());
  return (
    <>
      <PageHeader title="Settings" />
      {!editable && <p className="muted">Only owners and admins change these settings.</p>}
      <QueryState q={q}>
        {(s) => (
          <>
            <section className="card" aria-labelledby="account-heading">
              <h2 id="account-heading">Account</h2>
              <AccountNameForm name={s.account.name} editable={editable} />
            </section>
            <section className="card" aria-labelledby="projects-heading">
              <h2 id="projects-heading">Projects</h2>
              {s.projects.length === 0 ? (
                <Empty>No projects yet: their settings show here once one exists.</Empty>
              ) : (
                s.projects.map((p) => (
                  <ProjectSettingsForm key={p.id} project={p} editable={editable} />
                ))
              )}
            </section>
            <OperatorFacts account={s.account} />
            <ProvidersCard />
          </>
        )}
      </QueryState>
    </>
  );
}
