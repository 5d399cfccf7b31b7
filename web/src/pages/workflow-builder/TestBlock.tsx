// "Test this block": the selected block run on its own with the settings as edited and the text of
// each block feeding it — that block's output in the workflow's last run when there is one, else
// sample text — which the person can change before testing. No run starts; the answer is shown
// here. Only a saved block can be tested (the server runs the saved workflow's block).
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ErrorNotice } from '../../components/states';
import { runQuery } from '../../data/runs';
import { useTestBlock, workflowQuery } from '../../data/workflows';
import { dollars } from '../../lib/money';
import { inputsOf, type BlockDef, type Definition } from './model';

/** The newest run's output of each block, by block id (empty without a run). */
function useLastOutputs(workflowId: string) {
  const wf = useQuery(workflowQuery(workflowId));
  const last = wf.data?.recent_runs[0]?.id ?? '';
  const run = useQuery({ ...runQuery(last), enabled: last !== '' });
  const outputs: Record<string, string> = {};
  for (const s of run.data?.steps ?? []) if (s.output) outputs[s.node_id] = s.output.text;
  return { outputs, runId: last || null, loading: wf.isPending || (last !== '' && run.isPending) };
}

const sample = (from: string) => `Sample text from ${from}: write what this block would receive.`;

export function TestBlock({ workflowId, block, draft, saved }: { workflowId: string | null; block: BlockDef; draft: Definition; saved: boolean }) {
  const id = useId();
  if (!workflowId || !saved) {
    return (
      <section className="wf-test" aria-labelledby={id}>
        <h3 id={id}>Test this block</h3>
        <p className="muted">Save the workflow to test this block.</p>
      </section>
    );
  }
  return <Tester key={block.id} workflowId={workflowId} block={block} draft={draft} />;
}

function Tester({ workflowId, block, draft }: { workflowId: string; block: BlockDef; draft: Definition }) {
  const id = useId();
  const last = useLastOutputs(workflowId);
  const from = inputsOf(draft, block.id);
  // What the person typed over the prefilled text, by feeding block.
  const [typed, setTyped] = useState<Record<string, string>>({});
  const textOf = (name: string) => typed[name] ?? last.outputs[name] ?? sample(name);
  const test = useTestBlock(workflowId);
  const result = test.data;
  return (
    <section className="wf-test" aria-labelledby={id}>
      <h3 id={id}>Test this block</h3>
      {from.length === 0 ? (
        <p className="muted">Nothing feeds this block: it is tested on its own settings.</p>
      ) : (
        <p className="muted">
          {last.runId ? 'Each input starts as that block’s output in the last run; change it if you like.' : 'No run yet: each input starts as sample text; write what the block would receive.'}
        </p>
      )}
      {from.map((name) => (
        <div className="field" key={name}>
          <label htmlFor={`${id}-${name}`}>Input from {name}</label>
          <textarea id={`${id}-${name}`} rows={3} value={textOf(name)} onChange={(e) => setTyped((t) => ({ ...t, [name]: e.target.value }))} />
        </div>
      ))}
      <button
        type="button"
        className="button-secondary"
        disabled={test.isPending || last.loading}
        aria-describedby={`${id}-hint`}
        onClick={() => test.mutate({ block: block.id, body: { config: block.config, inputs: Object.fromEntries(from.map((n) => [n, textOf(n)])) } })}
      >
        {test.isPending ? 'Testing…' : 'Test this block'}
      </button>
      <small id={`${id}-hint`} className="hint wf-test-hint">
        Runs only this block, without starting a run. Free with the development AI; with a real AI provider, an AI block’s tokens are billed as AI usage, like a run’s.
      </small>
      <ErrorNotice error={test.error} />
      {result && (
        <div className="wf-test-result" role="status">
          {result.status === 'failed' ? (
            <p className="notice notice-error">The block failed: {result.error}</p>
          ) : (
            <>
              <h4>Output</h4>
              <pre className="wf-test-output">{result.output?.text || '(empty)'}</pre>
            </>
          )}
          {result.note && <p className="muted">{result.note}</p>}
          <p className="muted">
            {result.development_ai ? 'Development AI: nothing was billed.' : result.billed_micros > 0 ? `Billed as AI usage: ${dollars(result.billed_micros)}.` : 'Nothing was billed.'}
          </p>
        </div>
      )}
    </section>
  );
}
