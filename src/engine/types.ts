// Contracts between the engine's parts: the executor runs blocks; blocks use providers and
// billing through these interfaces only.
import type { Metrics } from '../lib/metrics.js';
import type { Config } from '../config.js';
import type { PageRenderer } from '../lib/page-renderer.js';
import type { Queryable, Db } from '../db/db.js';
import type { EngineLog } from '../queue/log.js';

/** What the engine's parts share (one frozen object per engine): the executors read it too. */
export interface EngineResources {
  db: Db;
  config: Config;
  blocks: ReadonlyMap<string, Block>;
  providers: Providers;
  billing: Billing;
  log: EngineLog;
  /** Written into lease_owner: which process holds a run (`host:pid:random`). */
  owner: string;
  /** The process's metrics, when it serves them (SWITCHBOARD_METRICS_ADDR). */
  metrics?: Metrics;
}

/** What a block sees of the run it belongs to. */
export interface RunRef {
  accountId: string;
  runId: string;
  workflowId: string;
  /** The workflow's project (output.project writes there); null when it has none. */
  projectId: string | null;
  /** The API key that started the run (spend caps apply to it); null for manual/schedule runs. */
  keyId: string | null;
  /** Lease attempt: every write after a claim is fenced on (runId, attempt). */
  attempt: number;
}

export interface BlockDef {
  id: string;
  kind: string;
  config: Record<string, unknown>;
}

export interface EdgeDef {
  from: string;
  to: string;
}

export type BlockOutput = { text: string; [k: string]: unknown };

export interface BlockContext {
  run: RunRef;
  block: BlockDef;
  /** Outputs of the blocks feeding this one (edges into it), by block id, in edge order. */
  inputs: Record<string, BlockOutput>;
  db: Db;
  providers: Providers;
  billing: Billing;
  /**
   * A key unique to this step execution within the run (runId:blockId). Side effects record it so
   * that a run resumed after a crash never does them twice.
   */
  effectKey: string;
  /** Aborted when the run hits its time limit or is cancelled. */
  signal: AbortSignal;
  /** true when this block is being resumed after its approval was given. */
  approved: boolean;
  /** With `approved`: the text the approver edited the draft to, to pass on instead (null: the draft as it stood). */
  approvedText?: string | null;
}

export type BlockResult =
  | { status: 'succeeded'; output: BlockOutput }
  /** An approval block waiting for a person; the run moves to awaiting_approval. */
  | { status: 'awaiting' }
  | { status: 'failed'; error: string }
  /** A spend limit stopped the block: the run ends `partial` with this reason. */
  | { status: 'limit'; error: string }
  /**
   * The account stopped being active while the block worked (its charge was refused): nothing is
   * billed; the run is held and the block runs again when the account is active (or the run
   * ends, if the account was closed).
   */
  | { status: 'held' };

export interface Block {
  readonly kind: string;
  /** null when the config is acceptable, else a message naming the field at fault. */
  validate(config: Record<string, unknown>): string | null;
  execute(ctx: BlockContext): Promise<BlockResult>;
}

export interface LlmRequest {
  prompt: string;
  maxTokens: number;
  signal?: AbortSignal;
}

export interface LlmResponse {
  text: string;
  inputTokens: number;
  outputTokens: number;
}

export interface LlmProvider {
  /** 'local' (deterministic, offline: development only) or 'openai-compatible'. */
  readonly name: string;
  complete(req: LlmRequest): Promise<LlmResponse>;
}

export interface Providers {
  llm: LlmProvider;
  /** Page conversion (output.project), off the event loop. */
  pages: PageRenderer;
  /** HTTP GET for source.web, behind the private-address guard. */
  fetchText(url: string, opts: { signal: AbortSignal; maxBytes: number; timeoutMs: number }): Promise<string>;
}

/**
 * A refusal's reason: the balance, the key's cap, (`ended`) the workflow run it is for is final
 * already (cancelled or stopped while the block worked): a final run's billed_micros never moves,
 * or (`account`) the account is suspended, lapsed or closed: nothing is billed to it, and the work
 * is held (or ended, when closed), not failed.
 */
export type ChargeResult = { ok: true } | { ok: false; reason: 'credit' | 'cap' | 'ended' | 'account' };

/** A refusal that is a spend limit (remembered by recordStop), as opposed to an ended run or account. */
export const isLimitRefusal = (reason: string): reason is 'credit' | 'cap' => reason === 'credit' || reason === 'cap';

export interface Charge {
  accountId: string;
  keyId: string | null;
  workflowRunId?: string;
  automationRunId?: string;
  /** e.g. llm.tokens, block.run, sms */
  feature: string;
  micros: number;
  /** Unique per billable event: a retry with the same key is not charged twice. */
  effectKey: string;
}

export interface Billing {
  /**
   * Charges atomically: the ledger row, the account's balance (never below zero) and the key's
   * spend for the UTC month (never above its cap) move together or not at all.
   */
  charge(charge: Charge, tx?: Queryable): Promise<ChargeResult>;
  /** What the account and key may still spend (the smaller of balance and cap headroom). */
  headroom(accountId: string, keyId: string | null): Promise<number>;
  /**
   * A run or step was stopped by a limit (a refused charge's reason, or none when the headroom
   * cannot pay for the next call): remembers which, so further API starts answer 402 until credit
   * is added or the cap raised.
   */
  recordStop(accountId: string, keyId: string | null, reason?: 'credit' | 'cap', tx?: Queryable): Promise<'credit' | 'cap'>;
}
