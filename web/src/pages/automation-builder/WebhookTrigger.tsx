// A webhook trigger's URL: the server keeps only a hash of its secret, so the URL is shown once,
// when it is made; "Rotate secret" makes a new one (the old URL stops working at once).
import { useState } from 'react';
import { ConfirmDialog, CopyButton } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { useRotateWebhook } from '../../data/automations';

export function WebhookTrigger({ automationId, configured }: { automationId: string; configured: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const rotate = useRotateWebhook(automationId);
  const make = () => rotate.mutate(undefined, { onSettled: () => setConfirming(false) });
  const shown = rotate.data;
  return (
    <div className="builder-webhook">
      {shown ? (
        <div className="notice notice-warn" role="status">
          <p>
            <strong>Copy this URL now: it is shown only once.</strong> Calls to it (POST, JSON with the contact&apos;s email and names) start this automation once it is published with this trigger.
          </p>
          <p className="builder-webhook-url">
            <code>{shown.url}</code> <CopyButton text={shown.url} label="Copy webhook URL" />
          </p>
        </div>
      ) : configured ? (
        <p>A webhook URL is set. It was shown when it was made; rotate the secret to get a new one (the old URL then stops working).</p>
      ) : (
        <p>No webhook URL yet: make one to call this automation from another system.</p>
      )}
      <ErrorNotice error={rotate.error} />
      <button type="button" className="button-secondary" disabled={rotate.isPending} onClick={() => (configured ? setConfirming(true) : make())}>
        {rotate.isPending ? 'Making a new URL…' : configured ? 'Rotate secret' : 'Make webhook URL'}
      </button>
      <ConfirmDialog
        open={confirming}
        title="Rotate the webhook secret?"
        confirmLabel="Rotate secret"
        danger
        onConfirm={make}
        onCancel={() => setConfirming(false)}
      >
        <p>The current URL stops working at once; whatever calls it must be given the new one.</p>
      </ConfirmDialog>
    </div>
  );
}
