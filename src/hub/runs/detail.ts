// One run as the hub's run page shows it: the run, its steps as a timeline with each block's
// stored output (workflow_run_steps.output, written by the engine as each block succeeds) and the
// decision taken on an approval step; what the run made (each content item an output.project
// block created, to link to); its time split into work and waiting for approval; the run it
// retries and its newest retry; and, for a run awaiting approval, the draft the
// approver decides on: what the approval block will pass on, the outputs of the blocks feeding
// it, joined as the block joins them. HTML is given as html (the page shows it in a sandboxed
// frame), everything else as text. And a run as the runs list shows it.
import type { Queryable } from '../../db/db.js';
import { madeByDevelopmentLlm } from '../../domain/providers.js';
import { canRetry, isFinal } from '../../domain/workflow.js';
import { joinedInput, looksLikeHtml } from '../../engine/blocks/text.js';
import type { BlockOutput } from '../../engine/types.js';
import { iso, isoOrNull } from '../../lib/time.js';
import { renderRunInList } from '../../api/runs/render.js';
import type { HubRunDetail as Detail, HubRunDecision, HubRunInList, Output } from './schemas.js';
import {
  getAccountRun, getHubRunSteps, itemsMade, latestRetryOf, type AccountRunDetailRow, type AccountRunRow, type HubRunStepRow, type MadeItemRow, type RunStepRow,
} from '../../services/runs/read-store.js';

export function renderHubRun(r: AccountRunRow): HubRunInList {
  return {
    ...renderRunInList(r),
    workflow_name: r.workflow_name,
    duration_ms: r.duration_ms === null ? null : Math.round(Number(r.duration_ms)),
  };
}

function textOf(o: RunStepRow['output']): string {
  return o && typeof o.text === 'string' ? o.text : '';
}

function itemOf(o: RunStepRow['output']): string | null {
  return o && typeof o.item_id === 'string' ? o.item_id : null;
}

function render(text: string, itemId: string | null, items: Map<string, MadeItemRow>): Output {
  const page = itemId ? items.get(itemId)?.html : undefined;
  return { text, html: page ?? (looksLikeHtml(text) ? text : null), item_id: itemId };
}

function stepMs(s: RunStepRow, now: number): number {
  // A step still running reports the time elapsed so far.
  if (s.status === 'running' && s.started_at) return Math.max(0, Math.round(now - s.started_at.getTime()));
  return s.ms;
}

/**
 * How long an approval step waited for a person: from when its block answered "awaiting" (its
 * start plus its own time) to the decision (or the step's end, for a run cancelled meanwhile,
 * or now, while it still waits). null for a step that is not an approval, or never waited.
 */
function waitMs(s: HubRunStepRow, now: number): number | null {
  if (s.node_kind !== 'approval' || !s.started_at) return null;
  const until = s.decided_at?.getTime() ?? (s.status === 'awaiting' ? now : s.finished_at?.getTime());
  if (until === undefined) return null;
  return Math.max(0, Math.round(until - s.started_at.getTime() - s.ms));
}

function decisionOf(s: HubRunStepRow): HubRunDecision | null {
  if (s.node_kind !== 'approval' || !s.decided_at) return null;
  const original = s.output && typeof s.output.original_text === 'string' ? s.output.original_text : null;
  return {
    outcome: s.status === 'failed' && s.error === 'Rejected' ? 'rejected' : 'approved',
    decided_by: s.decided_by,
    decided_at: iso(s.decided_at),
    original_text: original,
    reason: s.reject_reason,
  };
}

function approvalOf(run: AccountRunDetailRow, steps: HubRunStepRow[], items: Map<string, MadeItemRow>): Detail['approval'] {
  const waiting = run.status === 'awaiting_approval' ? steps.find((s) => s.status === 'awaiting') : undefined;
  if (!waiting) return null;
  const byNode = new Map(steps.map((s) => [s.node_id, s]));
  const inputs: Record<string, BlockOutput> = {};
  for (const e of Array.isArray(run.edges) ? run.edges : []) {
    if (e.to !== waiting.node_id) continue;
    const from = byNode.get(e.from);
    if (from?.output) inputs[e.from] = { ...from.output, text: textOf(from.output) };
  }
  const block = (Array.isArray(run.blocks) ? run.blocks : []).find((b) => b.id === waiting.node_id);
  const message = typeof block?.config?.message === 'string' ? block.config.message : '';
  return { node_id: waiting.node_id, message, output: render(joinedInput(inputs), null, items) };
}

export async function renderRunDetail(db: Queryable, accountId: string, runId: string): Promise<Detail | null> {
  const run = await getAccountRun(db, accountId, runId);
  if (!run) return null;
  const steps = await getHubRunSteps(db, accountId, runId);
  // Only output.project steps name an item they made; source.item names the item it read, which
  // is not this run's output.
  const makers = steps.flatMap((s) => {
    const id = s.node_kind === 'output.project' ? itemOf(s.output) : null;
    return id ? [{ node_id: s.node_id, item_id: id }] : [];
  });
  const items = await itemsMade(db, accountId, makers.map((m) => m.item_id));
  const now = Date.now();
  const waits = steps.map((s) => waitMs(s, now)).filter((w): w is number => w !== null);

  return {
    ...renderHubRun(run),
    final: isFinal(run.status),
    billed_micros: Number(run.billed_micros),
    started_by: run.started_by,
    steps: steps.map((s) => ({
      node_id: s.node_id,
      node_kind: s.node_kind,
      status: s.status as Detail['steps'][number]['status'],
      started_at: isoOrNull(s.started_at),
      finished_at: isoOrNull(s.finished_at),
      ms: stepMs(s, now),
      error: s.error,
      output: s.output === null ? null : render(textOf(s.output), s.node_kind === 'output.project' ? itemOf(s.output) : null, items),
      decision: decisionOf(s),
      development_ai: madeByDevelopmentLlm(s.output),
    })),
    work_ms: steps.reduce((sum, s) => sum + stepMs(s, now), 0),
    approval_wait_ms: waits.length ? waits.reduce((a, b) => a + b, 0) : null,
    made: makers.map((m) => {
      const item = items.get(m.item_id);
      return { node_id: m.node_id, item_id: m.item_id, kind: item?.kind ?? 'page', title: item?.title ?? null };
    }),
    retry_of: run.retry_of,
    latest_retry: await latestRetryOf(db, accountId, runId),
    can_retry: canRetry(run.status) && !run.workflow_deleted,
    approval: approvalOf(run, steps, items),
  };
}
