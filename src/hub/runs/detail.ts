// One run as the hub's run page shows it: the run, its steps as a timeline with each block's
// stored output (workflow_run_steps.output, written by the engine as each block succeeds), and,
// for a run awaiting approval, the draft the approver decides on: what the approval block will
// pass on, the outputs of the blocks feeding it, joined as the block joins them. HTML is given
// as html (the page shows it in a sandboxed frame), everything else as text. And a run as the
// runs list shows it.
import type { Queryable } from '../../db/db.js';
import { madeByDevelopmentLlm } from '../../domain/providers.js';
import { isFinal } from '../../domain/workflow.js';
import { joinedInput, looksLikeHtml } from '../../engine/blocks/text.js';
import type { BlockOutput } from '../../engine/types.js';
import { isoOrNull } from '../../lib/time.js';
import { renderRunInList } from '../../api/runs/render.js';
import type { HubRunDetail as Detail, HubRunInList, Output } from './schemas.js';
import { getAccountRun, getRunSteps, pagesHtml, type AccountRunRow, type RunStepRow } from '../../services/runs/read-store.js';

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

function render(text: string, itemId: string | null, pages: Map<string, string>): Output {
  const page = itemId ? pages.get(itemId) : undefined;
  return { text, html: page ?? (looksLikeHtml(text) ? text : null), item_id: itemId };
}

function stepMs(s: RunStepRow, now: number): number {
  // A step still running reports the time elapsed so far.
  if (s.status === 'running' && s.started_at) return Math.max(0, Math.round(now - s.started_at.getTime()));
  return s.ms;
}

export async function renderRunDetail(db: Queryable, accountId: string, runId: string): Promise<Detail | null> {
  const run = await getAccountRun(db, accountId, runId);
  if (!run) return null;
  const steps = await getRunSteps(db, accountId, runId, true);
  // Only output.project steps name a page (item_id with a kind of page); source.item names the
  // item it read, whose HTML is not this run's output.
  const made = steps.filter((s) => s.node_kind === 'output.project').map((s) => itemOf(s.output)).filter((id): id is string => id !== null);
  const pages = await pagesHtml(db, accountId, made);
  const now = Date.now();

  let approval: Detail['approval'] = null;
  const waiting = run.status === 'awaiting_approval' ? steps.find((s) => s.status === 'awaiting') : undefined;
  if (waiting) {
    const byNode = new Map(steps.map((s) => [s.node_id, s]));
    const inputs: Record<string, BlockOutput> = {};
    for (const e of Array.isArray(run.edges) ? run.edges : []) {
      if (e.to !== waiting.node_id) continue;
      const from = byNode.get(e.from);
      if (from?.output) inputs[e.from] = { ...from.output, text: textOf(from.output) };
    }
    const block = (Array.isArray(run.blocks) ? run.blocks : []).find((b) => b.id === waiting.node_id);
    const message = typeof block?.config?.message === 'string' ? block.config.message : '';
    approval = { node_id: waiting.node_id, message, output: render(joinedInput(inputs), null, pages) };
  }

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
      output: s.output === null ? null : render(textOf(s.output), s.node_kind === 'output.project' ? itemOf(s.output) : null, pages),
      development_ai: madeByDevelopmentLlm(s.output),
    })),
    approval,
  };
}
