// Test doubles for block tests: a BlockContext builder, a Billing double with a fixed headroom
// that records charges (billing's real implementation lives elsewhere), and a scripted LLM.
import { inlinePageRenderer } from '../../../src/lib/page-renderer.js';
import type { Db } from '../../../src/db/db.js';
import type {
  Billing,
  BlockContext,
  BlockDef,
  BlockOutput,
  Charge,
  ChargeResult,
  LlmProvider,
  LlmRequest,
  Providers,
} from '../../../src/engine/types.js';

export class FakeBilling implements Billing {
  charges: Charge[] = [];
  headroomCalls = 0;
  /** Stops recorded (recordStop calls). */
  stops = 0;
  constructor(
    public left: number,
    /** When set, every charge is refused with this reason. */
    public refuse: 'credit' | 'cap' | null = null,
  ) {}
  async headroom(): Promise<number> {
    this.headroomCalls++;
    return this.left;
  }
  async charge(c: Charge): Promise<ChargeResult> {
    if (this.refuse) return { ok: false, reason: this.refuse };
    // Same dedupe rule as the real ledger: one charge per effectKey.
    if (!this.charges.some((x) => x.effectKey === c.effectKey)) {
      this.charges.push(c);
      this.left -= c.micros;
    }
    return { ok: true };
  }
  async recordStop(): Promise<'credit' | 'cap'> {
    this.stops++;
    return 'credit';
  }
}

export class FakeLlm implements LlmProvider {
  readonly name = 'fake';
  requests: LlmRequest[] = [];
  constructor(private readonly answer: (req: LlmRequest) => { text: string; inputTokens: number; outputTokens: number }) {}
  async complete(req: LlmRequest) {
    this.requests.push(req);
    return this.answer(req);
  }
}

export function providers(over: Partial<Providers> = {}): Providers {
  return {
    llm: new FakeLlm(() => ({ text: 'ok', inputTokens: 1, outputTokens: 1 })),
    pages: inlinePageRenderer,
    fetchText: async () => {
      throw new Error('fetchText not expected in this test');
    },
    ...over,
  };
}

export interface CtxOptions {
  block: BlockDef;
  inputs?: Record<string, BlockOutput>;
  db?: Db;
  providers?: Providers;
  billing?: Billing;
  accountId?: string;
  projectId?: string | null;
  keyId?: string | null;
  runId?: string;
  effectKey?: string;
  approved?: boolean;
  signal?: AbortSignal;
}

const ZERO = '00000000-0000-7000-8000-000000000000';

export function ctx(o: CtxOptions): BlockContext {
  const runId = o.runId ?? '00000000-0000-7000-8000-0000000000aa';
  return {
    run: {
      accountId: o.accountId ?? ZERO,
      runId,
      workflowId: '00000000-0000-7000-8000-0000000000bb',
      projectId: o.projectId === undefined ? null : o.projectId,
      keyId: o.keyId === undefined ? null : o.keyId,
      attempt: 1,
    },
    block: o.block,
    inputs: o.inputs ?? {},
    db: o.db ?? (new Proxy({}, { get: () => { throw new Error('db not expected in this test'); } }) as Db),
    providers: o.providers ?? providers(),
    billing: o.billing ?? new FakeBilling(Number.MAX_SAFE_INTEGER),
    effectKey: o.effectKey ?? `${runId}:${o.block.id}`,
    signal: o.signal ?? new AbortController().signal,
    approved: o.approved ?? false,
  };
}
