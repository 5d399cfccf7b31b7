// The getting-started checklist (issue 25, item 8): the account's first steps, each linking to
// where it is done and ticked once it is (GET /hub/api/getting-started computes the facts). Once
// every step is done, or when the person hides it (kept per user on the server), it folds into
// one line with a button to show it again.
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { ErrorNotice, Loading } from '../../components/states';
import { gettingStartedQuery, useHideGettingStarted, type StartStepKey } from '../../data/getting-started';
import { NEW_PROJECT_PATH } from '../../lib/paths';

/** Each step: what to do, why, and where (the link's words name the place). */
const STEPS: Record<StartStepKey, { title: string; why: string; to: string; go: string }> = {
  project: { title: 'Create a project', why: 'Workflows, automations and pages belong to a project.', to: NEW_PROJECT_PATH, go: 'New project' },
  api_key: { title: 'Create an API key', why: 'Your site or app calls the API with it.', to: '/keys', go: 'API keys' },
  workflow: { title: 'Build your first workflow', why: 'Start from a template such as a weekly digest.', to: '/workflows/new', go: 'New workflow' },
  automation: { title: 'Build your first automation', why: 'A welcome series or a renewal reminder, from a template.', to: '/automations/new', go: 'New automation' },
  contact: { title: 'Add your first contact', why: 'Automations run for contacts.', to: '/contacts/new', go: 'New contact' },
  email: {
    title: 'Set up real email',
    why: 'Until then emails stay in the outbox and nobody receives them. The operator sets SWITCHBOARD_EMAIL_TRANSPORT=smtp and SWITCHBOARD_SMTP_URL.',
    to: '/settings',
    go: 'Settings',
  },
};

export function Checklist() {
  const q = useQuery(gettingStartedQuery());
  const hide = useHideGettingStarted();
  const headingId = useId();
  if (q.isPending) return <Loading what="Loading getting started" />;
  if (q.error) return <ErrorNotice error={q.error} />;
  const g = q.data;
  const done = g.steps.filter((s) => s.done).length;
  if (g.hidden || g.complete) {
    return (
      <p className="home-folded">
        {g.complete ? 'Getting started: all done.' : `Getting started: ${done} of ${g.steps.length} done.`}{' '}
        <button type="button" className="button-secondary" disabled={hide.isPending} onClick={() => hide.mutate(false)} hidden={g.complete && !g.hidden}>
          Show the checklist
        </button>
        <ErrorNotice error={hide.error} />
      </p>
    );
  }
  return (
    <section className="card home-checklist" aria-labelledby={headingId}>
      <div className="home-checklist-head">
        <h2 id={headingId}>Getting started</h2>
        <span className="hint">
          {done} of {g.steps.length} done
        </span>
      </div>
      <ol className="home-steps">
        {g.steps.map((s) => {
          const step = STEPS[s.key];
          return (
            <li key={s.key} className={s.done ? 'home-step home-step-done' : 'home-step'}>
              <span className="home-step-mark" aria-hidden="true">
                {s.done ? '✓' : ''}
              </span>
              <div>
                <strong>{step.title}</strong>
                <span className="visually-hidden">{s.done ? ' (done)' : ' (to do)'}</span>
                <p className="hint">{step.why}</p>
              </div>
              {s.done ? (
                <span className="home-step-state">Done</span>
              ) : (
                <Link to={step.to} className="button button-secondary" aria-label={`${step.go}: ${step.title.toLowerCase()}`}>
                  {step.go}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
      <ErrorNotice error={hide.error} />
      <button type="button" className="button-secondary home-hide" disabled={hide.isPending} onClick={() => hide.mutate(true)}>
        Hide this checklist
      </button>
    </section>
  );
}
