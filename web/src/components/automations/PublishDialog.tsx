// Publishing, reviewed first: the draft against the running version (GET …/diff: steps added,
// removed and changed with the fields that changed; the filter that will apply, and the trigger,
// filter, re-enrollment and name old → new in words), then
// POST …/publish makes it the next version. A refusal (a step that is not ready) stays in view.
// Shared by the builder and the automation's page (its "Publish draft…").
import { useQuery } from '@tanstack/react-query';
import { STEP_SCHEMAS } from '@domain/step-schemas';
import { automationDiffQuery, useAutomationMove, type Automation, type AutomationDiff, type Step } from '../../data/automations';
import { ErrorNotice, Loading } from '../states';
import { Modal } from './Modal';
import { SettingChanges } from './SettingChanges';
import { StepChanges } from './StepChanges';

function StepLine({ s }: { s: Step }) {
  return (
    <>
      <strong>{s.name}</strong> <span className="muted">({STEP_SCHEMAS[s.type]?.label ?? s.type})</span>
    </>
  );
}

/** Something to publish: a change since the running version, or a first version (has_changes is /v1's flag, false until then). */
const publishable = (d: AutomationDiff) => d.has_changes || d.from_version === 0;

export function DiffView({ diff }: { diff: AutomationDiff }) {
  const { added, removed, changed } = diff.steps;
  // Next and branch targets by name; the diff holds the steps it mentions (others show their id).
  const names = new Map([...removed, ...changed.map((c) => c.before), ...added, ...changed.map((c) => c.after)].map((s) => [s.id, s.name]));
  // The name, trigger, filter and re-enrollment are said old → new by SettingChanges.
  const other = [diff.steps.reordered && 'The steps are in another order.'].filter((x): x is string => Boolean(x));
  if (!publishable(diff)) return <p className="state state-empty">The draft is the same as the running version.</p>;
  return (
    <div className="automations-diff">
      <SettingChanges diff={diff} />
      {other.length > 0 && (
        <ul className="automations-diff-other">
          {other.map((o) => (
            <li key={o}>{o}</li>
          ))}
        </ul>
      )}
      {added.length > 0 && (
        <section aria-label="Steps added">
          <h3 className="automations-diff-added">Steps added ({added.length})</h3>
          <ul>
            {added.map((s) => (
              <li key={s.id}>
                <StepLine s={s} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {removed.length > 0 && (
        <section aria-label="Steps removed">
          <h3 className="automations-diff-removed">Steps removed ({removed.length})</h3>
          <ul>
            {removed.map((s) => (
              <li key={s.id}>
                <StepLine s={s} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {changed.length > 0 && (
        <section aria-label="Steps changed">
          <h3 className="automations-diff-changed">Steps changed ({changed.length})</h3>
          <ul>
            {changed.map((c) => (
              <li key={c.id}>
                <StepLine s={c.after} />
                <StepChanges before={c.before} after={c.after} names={names} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

export function PublishDialog({
  open,
  automation,
  trigger,
  onClose,
  onPublished,
}: {
  open: boolean;
  automation: Automation;
  /** What starts it, in words (said for a first version, whose diff has nothing to compare it with). */
  trigger: string;
  onClose: () => void;
  onPublished: () => void;
}) {
  const diff = useQuery({ ...automationDiffQuery(automation.id), enabled: open });
  const publish = useAutomationMove(automation.id);
  const next = automation.published_version + 1;
  const close = () => {
    publish.reset();
    onClose();
  };
  return (
    <Modal open={open} title={`Publish version ${next}?`} onClose={close} wide>
      <p>
        {automation.published_version
          ? `New runs will follow version ${next}; runs already under way finish on the version they started with.`
          : 'The automation starts taking contacts as soon as it is published.'}
        {automation.status === 'paused' && ' It stays paused until you resume it.'}
      </p>
      <h3 className="automations-small-heading">{automation.published_version ? `Changes since version ${automation.published_version}` : 'What will run'}</h3>
      {!automation.published_version && <p>Starts when: {trigger}.</p>}
      {diff.isPending ? <Loading what="Comparing with the running version" /> : diff.error ? <ErrorNotice error={diff.error} /> : <DiffView diff={diff.data} />}
      <ErrorNotice error={publish.error} />
      <div className="actions">
        <button type="button" className="button-secondary" onClick={close}>
          Cancel
        </button>
        <button type="button" disabled={publish.isPending || !diff.data || !publishable(diff.data)} onClick={() => publish.mutate('publish', { onSuccess: onPublished })}>
          {publish.isPending ? 'Publishing…' : `Publish version ${next}`}
        </button>
      </div>
    </Modal>
  );
}
