// A new workflow (workflows/new): the project it goes into (created here when the account has
// none), then a template (src/domain/starters.ts) made into a draft in that project and opened in
// the builder, or a blank canvas (the builder's own new mode, workflows/new/blank).
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { WORKFLOW_STARTERS, workflowFromStarter } from '@domain/starters';
import { PageHeader } from '../../components/PageHeader';
import { ProjectChoice } from '../../components/starters/ProjectChoice';
import { StarterCards } from '../../components/starters/StarterCards';
import type { Project } from '../../data/projects';
import { useSaveDefinition } from '../../data/workflows';

export default function NewWorkflowPage() {
  const navigate = useNavigate();
  const [project, setProject] = useState<Project | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const create = useSaveDefinition(null);
  const use = (id: string) => {
    const starter = WORKFLOW_STARTERS.find((s) => s.id === id);
    if (!starter || !project) return;
    setPending(id);
    create.mutate(workflowFromStarter(starter, project.id), {
      onSuccess: (e) => void navigate(`/workflows/${e.id}/build`),
      onSettled: () => setPending(null),
    });
  };
  return (
    <section aria-labelledby="new-workflow-title">
      <p>
        <Link to="/workflows">← All workflows</Link>
      </p>
      <PageHeader id="new-workflow-title" title="New workflow" />
      <ProjectChoice what="A workflow that saves pages" value={project} onChange={setProject} />
      <StarterCards starters={WORKFLOW_STARTERS} use={use} pending={pending} error={create.error} disabled={!project} />
      <h2>Or start blank</h2>
      <p>
        <Link className="button button-secondary" to="/workflows/new/blank">
          Start blank
        </Link>{' '}
        <span className="hint">An empty canvas: add blocks from the palette and choose the project in its settings.</span>
      </p>
    </section>
  );
}
