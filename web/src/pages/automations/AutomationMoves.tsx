// An automation's moves, as the status table allows them: publish the draft (a draft, or a
// published or paused one with unpublished changes), pause a published one, resume a paused one.
// The server decides; a refusal is shown with its code and request id.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorNotice } from '../../components/states';
import { api } from '../../lib/api';
import type { Automation } from './types';

type Move = 'publish' | 'pause' | 'resume';

export function AutomationMoves({ automation }: { automation: Automation }) {
  const client = useQueryClient();
  const move = useMutation({
    mutationFn: (m: Move) => api.post<Automation>(`/hub/api/automations/${automation.id}/${m}`),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['hub', 'automations'] }),
  });
  const a = automation;
  const canPublish = a.status === 'draft' || a.has_unpublished_changes;
  return (
    <div>
      <div className="actions">
        {canPublish && (
          <button type="button" disabled={move.isPending} onClick={() => move.mutate('publish')}>
            Publish draft
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
    </div>
  );
}
