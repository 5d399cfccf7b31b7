// The features a charge is booked under (the ledger's `feature`): what the engine bills today
// (engine/blocks/agent.ts, engine/automations/steps.ts) and what Usage names in words
// (web/src/lib/features.ts, which test/web checks covers every one). The ledger itself takes any
// name, so an old row under a retired feature still reads back.
export const BILLED_FEATURES = ['llm.tokens', 'sms', 'block.run', 'email'] as const;
export type BilledFeature = (typeof BILLED_FEATURES)[number];
