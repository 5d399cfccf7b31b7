// Blocks that shape or hold the flow: transform.template and approval.
import type { Block, BlockResult } from '../types.js';
import { checkString, joinedInput, onlyFields, renderTemplate } from './text.js';

const MAX_TEMPLATE = 50_000;
const MAX_MESSAGE = 1_000;

export const transformTemplate: Block = {
  kind: 'transform.template',
  // An empty template is allowed: it is a deliberate "blank" output, not a mistake worth refusing.
  validate: (c) => onlyFields(c, ['template']) ?? checkString(c, 'template', { maxLength: MAX_TEMPLATE, allowEmpty: true }),
  async execute(ctx) {
    return { status: 'succeeded', output: { text: renderTemplate(String(ctx.block.config.template), ctx.inputs) } };
  },
};

/**
 * Waits for a person: the first execution answers `awaiting` (the run moves to awaiting_approval);
 * the executor runs it again with `approved` once someone approves, and it passes its input on.
 * A rejection never reaches the block: the run ends `rejected`.
 */
export const approval: Block = {
  kind: 'approval',
  validate: (c) => onlyFields(c, ['message']) ?? checkString(c, 'message', { maxLength: MAX_MESSAGE }),
  async execute(ctx): Promise<BlockResult> {
    if (!ctx.approved) return { status: 'awaiting' };
    return { status: 'succeeded', output: { text: joinedInput(ctx.inputs), approved: true } };
  },
};
