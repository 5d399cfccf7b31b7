// An automation's moves, as the status table allows them: publish the draft (a draft, or a
// published or paused one with unpublished changes) after reviewing what changes, in the
// builder's publish dialog; pause a published one, resume a paused one. The server decides; a
// refusal is shown with its code and request id.
import { useState } from 'react';
import { PublishDialog } from '../../components/automations/PublishDialog';
import { triggerWords } from '../../components/automations/words';
import { ErrorNotice } from '../../components/states';
import { useAutomationMove, type Automation } from '../../data/automations';

export function AutomationMoves({ automation }: { automation: Automation }) {
  const move = useAutomationMove(automation.id);
  const [reviewing, setReviewing] = useState(false);
  const a = automation;
  const canPublish = a.status === 'draft' || a.has_unpublished_changes;
  return (
    <div>
      <div className="actions">
        {canPublish && (
          <button type="button" disabled={move.isPending} onClick={() => setReviewing(true)}>
            Publish draft…
          </button>
        )}
        {a.status === 'published' && (
          <button type="button" className="button-secondary" disabled={move.isPending} onClick={() => move.mutate('pause')}>
            Pause
          </button>
        )}
        {a.status === 'paused' && (
          <button type="button" disabled={move.isPending} onClick={() => move.mutate('resume')}>
            Resume
          </button>
        )}
      </div>
      <ErrorNotice error={move.error} />
      <PublishDialog open={reviewing} automation={a} trigger={triggerWords(a.trigger.type)} onClose={() => setReviewing(false)} onPublished={() => setReviewing(false)} />
    </div>
  );
}
