// The providers a server runs with (docs/architecture.md §10.5), as values shared by
// the hub's schemas and the web: which LLM, email and SMS transports exist, and which of them are
// development stand-ins (the `local` LLM echoes its input; the `outbox` transports keep messages
// in the outbox, settled `sent` but never delivered). Plain data, no Node import. config.ts (a
// lower layer) reads the same names; delivery/transports/index.ts's providerReport assigns its
// values to these types, so a name added there and not here fails the typecheck.

export const LLM_PROVIDERS = ['local', 'openai-compatible'] as const;
export type LlmProviderName = (typeof LLM_PROVIDERS)[number];
export const EMAIL_TRANSPORTS = ['outbox', 'smtp'] as const;
export type EmailTransportName = (typeof EMAIL_TRANSPORTS)[number];
export const SMS_TRANSPORTS = ['outbox', 'http'] as const;
export type SmsTransportName = (typeof SMS_TRANSPORTS)[number];

/** The development LLM provider: no model is called and nothing is billed by one. */
export const DEVELOPMENT_LLM: LlmProviderName = 'local';
/** The development transport (email and SMS alike): the message stays in the outbox. */
export const DEVELOPMENT_TRANSPORT = 'outbox';

/** A message settled by this transport (outbox.transport, recorded as it was handled) was kept, not delivered. */
export function keptInOutbox(status: string, transport: string | null): boolean {
  return status === 'sent' && transport === DEVELOPMENT_TRANSPORT;
}

/** A block's or step's stored output written by the development LLM (agent and ai.write record `provider`). */
export function madeByDevelopmentLlm(output: unknown): boolean {
  return typeof output === 'object' && output !== null && (output as { provider?: unknown }).provider === DEVELOPMENT_LLM;
}
