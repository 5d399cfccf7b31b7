// A block's config checked against its declared schema (src/domain/block-schemas.ts): the one
// place the engine's validate() methods get their rules, so the builder's forms and the engine
// cannot disagree about what a block accepts.
import { BLOCK_SCHEMAS } from '../../domain/block-schemas.js';
import { checkConfig } from '../../domain/config-schema.js';
import type { BlockKind } from '../../domain/workflow.js';

/** null when `config` suits the kind, else the message naming the field at fault. */
export function configProblem(kind: BlockKind, config: Record<string, unknown>): string | null {
  return checkConfig(BLOCK_SCHEMAS[kind], config)?.message ?? null;
}
