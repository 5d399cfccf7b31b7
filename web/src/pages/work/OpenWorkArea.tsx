// "Use work management in a project" (owners and admins): pick a project of the account and the
// prefix its item keys will carry (WEB → WEB-1, WEB-2…); then the project's board opens. A project
// already using it is refused with its own words (work_area_open: rename the prefix instead).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Field, FormButtons, Select } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { projectListQuery } from '../../data/projects';
import { useOpenWorkArea } from '../../data/work';
import { fieldError } from '../../lib/error-words';
import { PREFIX_RE } from '@domain/work-item';

/** A prefix from a project's name: its first letters in capitals (Website → WEB), else PRJ. */
function suggestedPrefix(name: string): string {
  const letters = name.toUpperCase().replace(/[^A-Z0-9]/g, '').replace(/^[0-9]+/, '');
  return letters.slice(0, 3) || 'PRJ';
}

export function OpenWorkArea({ usedBy }: { usedBy: ReadonlySet<string> }) {
  const projects = useQuery(projectListQuery({ limit: '100' }));
  const open = useOpenWorkArea();
  const navigate = useNavigate();
  const [projectId, setProjectId] = useState('');
  const [prefix, setPrefix] = useState('');
  const choices = (projects.data?.data ?? []).filter((p) => !usedBy.has(p.id));
  if (projects.isSuccess && projects.data.data.length === 0) {
    return (
      <p className="muted">
        Work management lives in a project: <Link to="/content">make a project</Link> first.
      </p>
    );
  }
  const typed = prefix.trim().toUpperCase();
  const shownPrefix = typed !== '' && PREFIX_RE.test(typed) ? typed : 'WEB';
  const badPrefix = typed !== '' && !PREFIX_RE.test(typed) ? 'A capital letter, then up to 9 capitals or digits, such as WEB.' : undefined;
  return (
    <form
      className="card"
      aria-label="Use work management in a project"
      onSubmit={(e) => {
        e.preventDefault();
        open.mutate({ projectId, prefix: typed }, { onSuccess: (p) => void navigate(`/work/${p.project_id}`) });
      }}
    >
      <h2>Use work management in a project</h2>
      <Select
        label="Project"
        value={projectId}
        onChange={(id) => {
          setProjectId(id);
          const p = choices.find((c) => c.id === id);
          if (p && prefix === '') setPrefix(suggestedPrefix(p.name));
        }}
        options={[['', projects.isLoading ? 'Loading projects…' : 'Choose a project'], ...choices.map((p) => [p.id, p.name] as const)]}
      />
      <Field
        label="Key prefix"
        hint={`Item keys start with it: ${shownPrefix}-1, ${shownPrefix}-2… You can rename it later; old keys keep working.`}
        value={prefix}
        onChange={(e) => setPrefix(e.target.value.toUpperCase())}
        maxLength={10}
        required
        error={badPrefix ?? fieldError(open.error, 'prefix')}
      />
      <ErrorNotice error={open.error} />
      <FormButtons label="Start using it" busyLabel="Starting…" busy={open.isPending} disabled={!projectId || !typed || badPrefix !== undefined} />
    </form>
  );
}
