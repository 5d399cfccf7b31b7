// `switchboard automations webhook AUTOMATION_ID --account ID`: gives the automation a new inbound
// webhook URL (a webhook trigger in the hub). The secret in the URL is shown once; only its hash is
// stored, and a new one replaces the old (the old URL stops working at once).
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/db.js';
import { setWebhookHash } from '../api/hooks/store.js';
import { webhookHash } from '../api/hooks/routes.js';
import { isUuid } from '../lib/ids.js';
import type { OperatorCommand } from './command.js';
import { parseCommandArgs, show, uuidArg } from './args.js';
import { CommandError, UsageError, done, type CommandResult } from './result.js';

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
  const secret = randomBytes(32).toString('base64url');
  if (!(await setWebhookHash(db, a.accountId, a.automationId, webhookHash(secret)))) {
    throw new CommandError(`no automation ${a.automationId} in account ${a.accountId}`);
  }
  return done(
    `webhook for automation ${a.automationId}: POST to <public URL>/hooks/automations/${secret}\n` +
      'This is the only time the secret is shown; the previous URL no longer works.',
  );
}

export function withWebhookAction<P>(base: OperatorCommand<P>): OperatorCommand<{ webhook: WebhookArgs } | { other: P }> {
  return {
    usage: `${base.usage}\n${AUTOMATIONS_WEBHOOK_USAGE}`,
    parse: (args) => (args[0] === 'webhook' ? { webhook: parse(args) } : { other: base.parse(args) }),
    run: (db, p, ctx) => ('webhook' in p ? run(db, p.webhook) : base.run(db, p.other, ctx)),
  };
}
