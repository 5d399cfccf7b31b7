// `switchboard automations webhook AUTOMATION_ID --account ID`: gives the automation a new inbound
// webhook URL (a webhook trigger in the hub). The secret in the URL is shown once; only its hash is
// stored, and a new one replaces the old (the old URL stops working at once). The rules and the
// audit entry are the service's (src/services/automations/webhook.ts), shared with the hub.
import type { Db } from '../db/db.js';
import { loadConfig } from '../config.js';
import { OPERATOR } from '../services/audit/service.js';
import { rotateWebhook } from '../services/automations/webhook.js';
import { isUuid } from '../lib/ids.js';
import type { OperatorCommand } from './command.js';
import { parseCommandArgs, show, uuidArg } from './args.js';
import { UsageError, done, type CommandResult } from './result.js';

export const AUTOMATIONS_WEBHOOK_USAGE = `  switchboard automations webhook AUTOMATION_ID --account ID
  webhook  a new inbound webhook URL for the automation (shown once; replaces the previous one).
           POST {email, first_name?, last_name?, phone?} to it: the contact is found or created
           and a run starts, with the automation's Run-only-if filter applied`;

interface WebhookArgs {
  automationId: string;
  accountId: string;
}

function parse(args: readonly string[]): WebhookArgs {
  const p = parseCommandArgs(args.slice(1), { strings: ['account'], positionals: { min: 0, max: 1 } });
  const id = p.positionals[0];
  if (id === undefined) throw new UsageError('the automation id is required');
  if (!isUuid(id)) throw new UsageError(`the automation id must be a UUID, got ${show(id)}`);
  if (!p.strings.has('account')) throw new UsageError('--account is required');
  return { automationId: id.toLowerCase(), accountId: uuidArg(p, 'account') };
}

async function run(db: Db, a: WebhookArgs): Promise<CommandResult> {
  // A Refusal (no such automation in the account) is printed with exit code 1 by execute().
  const { url } = await rotateWebhook(db, loadConfig(), a, OPERATOR);
  return done(`webhook for automation ${a.automationId}: POST to ${url}\nThis is the only time the secret is shown; the previous URL no longer works.`);
}

export function withWebhookAction<P>(base: OperatorCommand<P>): OperatorCommand<{ webhook: WebhookArgs } | { other: P }> {
  return {
    usage: `${base.usage}\n${AUTOMATIONS_WEBHOOK_USAGE}`,
    parse: (args) => (args[0] === 'webhook' ? { webhook: parse(args) } : { other: base.parse(args) }),
    run: (db, p, ctx) => ('webhook' in p ? run(db, p.webhook) : base.run(db, p.other, ctx)),
  };
}
