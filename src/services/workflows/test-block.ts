// "Test this block" (the hub's builder): one saved block of a workflow run on its own, with the
// settings being edited and the texts of the blocks feeding it (their last run's outputs, or sample
// text the person wrote), without a run. It executes the engine's own block code, so a test
// answers what a run would. What a test must not do:
// - start a run, or move a run's billed total (the charge carries no run);
// - bill the development AI (`local` echoes its input: a test of it costs nothing); a real
//   provider's tokens are AI usage like a run's, charged to the account;
// - leave marks a run leaves: an approval does not wait, Save as page saves no page, and a limit
//   reached here does not stop the account's API runs (recordStop is not called).
import type { Db } from '../../db/db.js';
import { BLOCK_SCHEMAS } from '../../domain/block-schemas.js';
import { configIssues, fieldWords } from '../../domain/config-schema.js';
import type { Config } from '../../config.js';
import { createBlockRegistry, LIMIT_MESSAGES } from '../../engine/blocks/index.js';
import { joinedInput } from '../../engine/blocks/text.js';
import type { Billing, BlockOutput, Providers } from '../../engine/types.js';
import { uuidv7 } from '../../lib/ids.js';
import { fail } from '../../lib/json-fields.js';
import { missing } from '../refusal.js';
import { findWorkflowForEdit } from './store.js';
import type { BlockSpec } from './validate.js';

export interface BlockTestEnv {
  db: Db;
  config: Pick<Config, 'llm' | 'engine'>;
  providers: Providers;
  billing: Billing;
}

export interface BlockTestRequest {
  accountId: string;
  workflowId: string;
  blockId: string;
  /** The settings as being edited; undefined: the saved ones. */
  config?: Record<string, unknown>;
  /** Feeding blocks' texts by id (checked for size by the caller's schema and here in all). */
  inputs: Record<string, string>;
}

export interface BlockTestOutcome {
  status: 'succeeded' | 'failed';
  output: { text: string; html: string | null } | null;
  error: string | null;
  note: string | null;
  billed_micros: number;
  development_ai: boolean;
}

/** How long a test may take: a web page or a model answer, not a run's whole budget. */
const TEST_TIMEOUT_MS = 60_000;

export async function testBlock(env: BlockTestEnv, req: BlockTestRequest, maxInputChars: number): Promise<BlockTestOutcome> {
  const w = await findWorkflowForEdit(env.db, req.workflowId, req.accountId);
  if (!w) throw missing('workflow', `no workflow ${req.workflowId} in account ${req.accountId}`);
  const saved = (w.blocks as BlockSpec[]).find((b) => b.id === req.blockId);
  if (!saved) fail('block', `This workflow has no saved block “${req.blockId}”: save the workflow, then test it`);
  const size = Object.values(req.inputs).reduce((n, t) => n + t.length, 0);
  if (size > maxInputChars) fail('inputs', `The sample text is too long: ${size} characters in all, at most ${maxInputChars}`);

  const config = req.config ?? saved.config;
  const schema = BLOCK_SCHEMAS[saved.kind];
  const bad = configIssues(schema, config)[0];
  if (bad) {
    const words = fieldWords(schema.fields.find((f) => f.name === bad.field), bad.field ?? '', bad.issue);
    fail(bad.field === null ? 'config' : `config.${bad.field}`, words);
  }

  const development = env.config.llm.provider === 'local';
  const inputs: Record<string, BlockOutput> = Object.fromEntries(Object.entries(req.inputs).map(([k, text]) => [k, { text }]));
  const base = { billed_micros: 0, development_ai: development };
  if (saved.kind === 'approval') {
    return { ...base, status: 'succeeded', output: { text: joinedInput(inputs), html: null }, error: null, note: 'In a run, this block waits here for a person to approve; the test passes its input on.' };
  }
  if (saved.kind === 'output.project') {
    const title = typeof config.title === 'string' ? config.title : '';
    return { ...base, status: 'succeeded', output: { text: joinedInput(inputs), html: null }, error: null, note: `In a run, this text is saved as the page “${title}” in the workflow's project; the test saves nothing.` };
  }

  // The development AI is free here: its price is 0, so nothing is charged (or asked of the balance).
  const llm = development ? { ...env.config.llm, microsPer1kTokens: 0 } : env.config.llm;
  const block = createBlockRegistry({ engine: env.config.engine, llm }).get(saved.kind)!;
  let billed = 0;
  const billing: Billing = {
    headroom: (accountId, keyId) => env.billing.headroom(accountId, keyId),
    // A test belongs to no run; its charge is AI usage of the account, under the test's own key.
    charge: async (c, tx) => {
      const { workflowRunId: _run, ...rest } = c;
      const r = await env.billing.charge(rest, tx);
      if (r.ok) billed += c.micros;
      return r;
    },
    recordStop: async (_a, _k, reason) => reason ?? 'credit',
  };
  const result = await block.execute({
    run: { accountId: req.accountId, runId: uuidv7(), workflowId: w.id, projectId: w.project_id, keyId: null, attempt: 0 },
    block: { id: saved.id, kind: saved.kind, config },
    inputs,
    db: env.db,
    providers: env.providers,
    billing,
    effectKey: `block-test:${uuidv7()}`,
    signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
    approved: false,
  });
  const done = { ...base, billed_micros: billed, note: null };
  switch (result.status) {
    case 'succeeded':
      return { ...done, status: 'succeeded', output: { text: String(result.output.text ?? ''), html: typeof result.output.html === 'string' ? result.output.html : null }, error: null };
    case 'failed':
    case 'limit':
      return { ...done, status: 'failed', output: null, error: result.error };
    case 'held':
      return { ...done, status: 'failed', output: null, error: LIMIT_MESSAGES.account };
    case 'awaiting':
      return { ...done, status: 'succeeded', output: { text: joinedInput(inputs), html: null }, error: null };
  }
}
