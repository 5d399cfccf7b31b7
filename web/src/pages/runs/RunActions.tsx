// What a person can do with a run: approve one awaiting approval, as it stands or with the draft
// edited (the run goes on with the edited text), or reject it with an optional reason; cancel one
// that has not ended (after a confirmation); run again (retry) one that failed, stopped, was
// cancelled or rejected. The moves and what they refresh are data/runs.ts's hooks. The approval buttons are
// large and stack on a narrow screen, so a phone approves with one thumb.
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { MAX_APPROVED_TEXT, MAX_REJECT_REASON } from '@domain/workflow';
import { ConfirmDialog } from '../../components/controls';
import { ErrorNotice } from '../../components/states';
import { useRetryRun, type RunDetail, type useRunMove } from '../../data/runs';

type Move = ReturnType<typeof useRunMove>;
type Mode = 'choose' | 'edit' | 'reject';

function TextBox({ label, hint, value, onChange, maxLength, rows }: { label: string; hint: string; value: string; onChange: (v: string) => void; maxLength: number; rows: number }) {
  const id = useId();
  return (
    <div className="field runs-textbox">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} rows={rows} value={value} maxLength={maxLength} aria-describedby={`${id}-hint`} onChange={(e) => onChange(e.target.value)} />
      <small id={`${id}-hint`} className="hint">
        {hint}
      </small>
    </div>
  );
}

/** Approve / Edit, then approve / Reject…, under the draft the run page shows. */
export function ApprovalButtons({ run, move }: { run: RunDetail; move: Move }) {
  const draft = run.approval?.output.text ?? '';
  const [mode, setMode] = useState<Mode>('choose');
  const [text, setText] = useState(draft);
  const [reason, setReason] = useState('');
  const busy = move.isPending;

  if (mode === 'edit') {
    return (
      <form
        className="runs-decide"
        onSubmit={(e) => {
          e.preventDefault();
          move.mutate({ move: 'approve', body: text === draft ? {} : { text } });
        }}
      >
        <TextBox label="The text to approve" hint="The run goes on with this text; the draft as it was is kept on the run." value={text} onChange={setText} maxLength={MAX_APPROVED_TEXT} rows={10} />
        <div className="runs-decide-buttons">
          <button type="submit" disabled={busy}>
            {text === draft ? 'Approve' : 'Approve the edited text'}
          </button>
          <button type="button" className="button-secondary" onClick={() => setMode('choose')} disabled={busy}>
            Back
          </button>
        </div>
      </form>
    );
  }
  if (mode === 'reject') {
    return (
      <form
        className="runs-decide"
        onSubmit={(e) => {
          e.preventDefault();
          move.mutate({ move: 'reject', body: reason.trim() ? { reason: reason.trim() } : {} });
        }}
      >
        <TextBox label="Why reject it? (optional)" hint={`Shown on the run; up to ${MAX_REJECT_REASON} characters.`} value={reason} onChange={setReason} maxLength={MAX_REJECT_REASON} rows={3} />
        <div className="runs-decide-buttons">
          <button type="submit" className="button-danger" disabled={busy}>
            Reject the run
          </button>
          <button type="button" className="button-secondary" onClick={() => setMode('choose')} disabled={busy}>
            Back
          </button>
        </div>
      </form>
    );
  }
  return (
    <div className="runs-decide-buttons">
      <button type="button" onClick={() => move.mutate({ move: 'approve', body: {} })} disabled={busy}>
        Approve
      </button>
      <button type="button" className="button-secondary" onClick={() => setMode('edit')} disabled={busy}>
        Edit, then approve
      </button>
      <button type="button" className="button-danger" onClick={() => setMode('reject')} disabled={busy}>
        Reject…
      </button>
    </div>
  );
}

export function CancelRun({ run, move }: { run: RunDetail; move: Move }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button-secondary" onClick={() => setOpen(true)} disabled={move.isPending}>
        Cancel run
      </button>
      <ConfirmDialog
        open={open}
        title="Cancel this run?"
        confirmLabel="Cancel the run"
        danger
        onCancel={() => setOpen(false)}
        onConfirm={() => {
          setOpen(false);
          move.mutate({ move: 'cancel' });
        }}
      >
        <p>
          The run of {run.workflow_name} stops where it is; a block in progress ends failed. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** Retries the run: a new manual run of the same workflow and blocks, naming this one; opens the new run's page. */
export function RunAgain({ run }: { run: RunDetail }) {
  const navigate = useNavigate();
  const again = useRetryRun(run.id, run.workflow_id);
  return (
    <>
      <button type="button" onClick={() => again.mutate(undefined, { onSuccess: (r) => void navigate(`/runs/${r.id}`) })} disabled={again.isPending}>
        {again.isPending ? 'Starting…' : 'Run again'}
      </button>
      <ErrorNotice error={again.error} />
    </>
  );
}

export function MoveError({ move }: { move: Move }) {
  return <ErrorNotice error={move.error} />;
}
