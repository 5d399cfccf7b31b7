// Blocks that shape or hold the flow: transform.template and approval.
import type { Block, BlockResult } from '../types.js';
import { joinedInput, renderTemplate } from './text.js';
import { configProblem } from './schema.js';

export const transformTemplate: Block = {
  kind: 'transform.template',
  validate: (c) => configProblem('transform.template', c),
  async execute(ctx) {
    return { status: 'succeeded', output: { text: renderTemplate(String(ctx.block.config.template), ctx.inputs) } };
  },
};

/**
 * Waits for a person: the first execution answers `awaiting` (the run moves to awaiting_approval);
 * the executor runs it again with `approved` once someone approves, and it passes its input on,
 * or the text the approver edited it to (its output then keeps the draft as `original_text`, so
 * both are on record). A rejection never reaches the block: the run ends `rejected`.
 */
export const approval: Block = {
  kind: 'approval',
  validate: (c) => configProblem('approval', c),
  async execute(ctx): Promise<BlockResult> {
    if (!ctx.approved) return { status: 'awaiting' };
    const draft = joinedInput(ctx.inputs);
    const edited = typeof ctx.approvedText === 'string' && ctx.approvedText !== draft ? ctx.approvedText : null;
    if (edited === null) return { status: 'succeeded', output: { text: draft, approved: true } };
    return { status: 'succeeded', output: { text: edited, approved: true, edited: true, original_text: draft } };
  },
};
