// Picks the transports from config: one for email (and team notices, which are email to the
// account's users) and one for SMS.
import type { Config, DeliveryConfig } from '../../config.js';
import type { Channel } from '../../domain/message.js';
import { DEVELOPMENT_LLM, DEVELOPMENT_TRANSPORT, type EmailTransportName, type LlmProviderName, type SmsTransportName } from '../../domain/providers.js';
import type { Transport } from '../types.js';
import { outboxTransport } from './outbox.js';
import { smsHttpTransport } from './sms-http.js';
import { smtpTransport } from './smtp.js';

export interface Transports {
  email: Transport;
  sms: Transport;
}

export function createTransports(d: DeliveryConfig): Transports {
  return {
    email:
      d.emailTransport === 'smtp'
        ? smtpTransport({ url: d.smtpUrl!, from: d.emailFrom, timeoutMs: d.sendTimeoutMs, maxConnections: d.concurrency })
        : outboxTransport(),
    sms: d.smsTransport === 'http' ? smsHttpTransport({ url: d.smsWebhookUrl!, token: d.smsWebhookToken, timeoutMs: d.sendTimeoutMs }) : outboxTransport(),
  };
}

export function transportFor(t: Transports, channel: Channel): Transport {
  return channel === 'sms' ? t.sms : t.email;
}

/** For the start-up banner: which transports are in use, development ones marked as such. */
export function describeTransports(d: DeliveryConfig): string {
  const email = d.emailTransport === 'smtp' ? `smtp ${smtpHost(d.smtpUrl!)}` : 'outbox (development: stored only, nothing sent)';
  const sms = d.smsTransport === 'http' ? `http ${new URL(d.smsWebhookUrl!).host}` : 'outbox (development: stored only, nothing sent)';
  return `email ${email}, SMS ${sms}`;
}

/** host:port of an SMTP URL without its credentials. */
function smtpHost(url: string): string {
  const u = new URL(url);
  return `${u.hostname}${u.port ? ':' + u.port : ''}`;
}

export interface ProviderInfo<P extends string = string> {
  provider: P;
  /** A development provider: nothing really leaves the machine (or, for the LLM, it is offline). */
  development: boolean;
}

/** For /readyz: the providers in use, development ones flagged (docs/architecture.md §10.5); no secret. */
export function providerReport(config: Pick<Config, 'llm' | 'delivery'>): {
  llm: ProviderInfo<LlmProviderName>;
  email: ProviderInfo<EmailTransportName>;
  sms: ProviderInfo<SmsTransportName>;
} {
  const d = config.delivery;
  return {
    llm: { provider: config.llm.provider, development: config.llm.provider === DEVELOPMENT_LLM },
    email: { provider: d.emailTransport, development: d.emailTransport === DEVELOPMENT_TRANSPORT },
    sms: { provider: d.smsTransport, development: d.smsTransport === DEVELOPMENT_TRANSPORT },
  };
}
