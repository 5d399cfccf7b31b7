// Messages in the hub: GET /messages, every email, SMS and team message of the account from the
// outbox, newest first, paged with the same cursors as every list, filtered by status, channel,
// contact and automation. Read-only: what the sender does with a message is the sender's.
import type { AppDeps } from '../../http/deps.js';
import { listByTime } from '../../http/list.js';
import type { App } from '../../http/route-kit.js';
import { hubList } from '../kit.js';
import { renderMessage } from './render.js';
import { HubMessage, ListMessagesQuery } from './schemas.js';
import { listMessages, type MessageRow } from './store.js';

export function registerHubMessageRoutes(hub: App, deps: AppDeps): void {
  hubList(hub, '/messages', 'member', {
    operationId: 'hubListMessages',
    summary: 'List messages',
    description:
      'Every message of the account, newest first: status, the recipient masked as in logs, the automation and contact ' +
      "of the run that sent it, and the transport's reason for a failure. Never the subject or the body. An unknown " +
      'contact_id or automation_id (or another account’s) lists nothing.',
    querystring: ListMessagesQuery,
    item: HubMessage,
    title: 'HubMessageList',
    lister: listByTime(deps.cursors, (r: MessageRow) => r.created_at),
    filters: ({ status, channel, contact_id, automation_id }) => ({ status, channel, contact_id, automation_id }),
    read: (page, { status, channel, contact_id, automation_id }) =>
      listMessages(deps.db, page.accountId, { status, channel, contactId: contact_id, automationId: automation_id }, page),
    render: renderMessage,
  });
}
