// The builder's head: the automation's state (status, the version that runs, unpublished
// changes), the draft's save state, and the moves: Publish (reviewed in a dialog), Pause, Resume.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { StatusBadge } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { PublishDialog } from '../../components/automations/PublishDialog';
import { useAutomationMove, type Automation } from '../../data/automations';
import type { SaveState } from './save-queue';
import { PageHeader } from '../../components/PageHeader';

function SaveLine({ save, retry }: { save: SaveState; retry: () => void }) {
  switch (save.kind) {
    case 'saving':
    case 'pending':
      return <span className="builder-save-state">Saving…</span>;
    case 'saved':
      return <span className="builder-save-state">{save.at ? `Saved at ${save.at.toLocaleTimeString()}` : 'All changes saved'}</span>;
    case 'error':
      return (
        <span className="builder-save-state builder-save-error">
          Not saved: {save.error instanceof Error ? save.error.message : String(save.error)}{' '}
          <button type="button" className="builder-link-button" onClick={retry}>
            Try again
          </button>
        </span>
      );
  }
}

export function BuilderHeader({
  automation,
  name,
  save,
  retry,
  blocked,
  flush,
  trigger,
}: {
  automation: Automation;
  name: string;
  save: SaveState;
  retry: () => void;
  /** Problems that block publishing (shown on their steps). */
  blocked: number;
  flush: () => Promise<boolean>;
  /** The draft's trigger in words. */
  trigger: string;
}) {
  const [reviewing, setReviewing] = useState(false);
  const [published, setPublished] = useState<number | null>(null);
  const a = automation;
  const move = useAutomationMove(a.id);
  // Not a write of its own: the draft saved now (the save queue), then the review opens.
  const prepare = useMutation({
    mutationFn: async () => {
      if (!(await flush())) throw new Error('The draft could not be saved; fix what is shown before publishing.');
    },
    onSuccess: () => setReviewing(true),
  });
  const changes = a.status === 'draft' || a.has_unpublished_changes || save.kind !== 'saved';
  return (
    <>
      <p>
        <Link to={`/automations/${a.id}`}>← {name || a.name}: runs and counters</Link>
      </p>
      <div className="page-head">
        <PageHeader id="builder-title" title={name || 'Untitled automation'} />
        <div className="actions">
          <button
            type="button"
            disabled={blocked > 0 || !changes || prepare.isPending || save.kind === 'error'}
            title={blocked ? 'Fix the problems marked below first' : undefined}
            onClick={() => prepare.mutate()}
          >
            Publish…
          </button>
          {a.status === 'published' && (
            <button type="button" className="button-secondary" disabled={move.isPending} onClick={() => move.mutate('pause')}>
              Pause
            </button>
          )}
          {a.status === 'paused' && (
            <button type="button" className="button-secondary" disabled={move.isPending} onClick={() => move.mutate('resume')}>
              Resume
            </button>
          )}
        </div>
      </div>
      <p className="builder-state">
        <StatusBadge status={a.status} /> {a.published_version ? `Version ${a.published_version} runs` : 'Never published'}
        {a.has_unpublished_changes && a.published_version > 0 && ' · the draft has unpublished changes'} · <SaveLine save={save} retry={retry} />
      </p>
      {blocked > 0 && (
        <p className="notice notice-warn">
          {blocked} {blocked === 1 ? 'problem blocks' : 'problems block'} publishing: see what is marked below.
        </p>
      )}
      {published !== null && (
        <p className="notice notice-ok" role="status">
          Version {published} published.
        </p>
      )}
      <ErrorNotice error={move.error ?? prepare.error} />
      <PublishDialog
        open={reviewing}
        automation={a}
        trigger={trigger}
        onClose={() => setReviewing(false)}
        onPublished={() => {
          setReviewing(false);
          setPublished(a.published_version + 1);
        }}
      />
    </>
  );
}
