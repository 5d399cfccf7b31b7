// Messages in the hub: GET /messages, every email, SMS and team message of the account from the
// outbox, newest first, paged with the same cursors as every list, filtered by status, channel,
// contact and automation; GET /messages/{id}, one message's page (render.ts decides what a role
// sees), and /messages/{id}/body, its body for the page's sandboxed frame (owners and admins); and
// POST /messages/{id}/resend, Re-send (owners and admins: the people who may read what a message
// says and to whom decide that it goes again), through the messages service. Otherwise what the
// sender does with a message is the sender's.
import type { AppDeps } from '../../http/deps.js';
import { listByTime } from '../../http/list.js';
import type { App } from '../../http/route-kit.js';
import { Type } from '@sinclair/typebox';
import { found } from '../../domain/errors.js';
import { mayAdminister } from '../../domain/hub.js';
import { actorOf, hubAuthOf, hubList, hubRoute } from '../kit.js';
import { optionalBody } from '../../http/route.js';
import { resendMessage } from '../../services/messages/service.js';
import { MESSAGE_BODY_CSP, messageBodyDocument, renderMessage, renderMessageDetail } from './render.js';
import { HubMessage, HubMessageDetail, ListMessagesQuery, MessageIdParams, ResendBody } from './schemas.js';
import { getMessage, listMessages, type MessageRow } from './store.js';

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

  hub.get('/messages/:id', hubRoute('member', {
    operationId: 'hubGetMessage',
    summary: "A message's page",
    description:
      'The message as the list shows it, with its subject, the run step that queued it and every delivery attempt with the ' +
      "transport's answer (addresses blanked). Owners and admins also get the whole recipient and the body; members get the " +
      'recipient masked and no body. Another account’s message is a 404.',
    params: MessageIdParams,
    response: { 200: HubMessageDetail },
  }), async (request) => {
    const auth = hubAuthOf(request);
    const row = found(await getMessage(deps.db, auth.accountId, request.params.id), 'message');
    return renderMessageDetail(row, mayAdminister(auth.role));
  });

  hub.get('/messages/:id/body', hubRoute('admin', {
    operationId: 'hubGetMessageBody',
    summary: "A message's body, for the message page's sandboxed frame",
    description:
      'An HTML document (owners and admins only): an email as its HTML part is sent, a text as plain text. Served under a ' +
      "CSP that loads nothing from anywhere and runs nothing (`sandbox`), so opening a message never reaches a tracker.",
    params: MessageIdParams,
    response: { 200: Type.String({ description: 'text/html' }) },
  }), async (request, reply) => {
    const row = found(await getMessage(deps.db, hubAuthOf(request).accountId, request.params.id), 'message');
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', MESSAGE_BODY_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-store')
      .send(messageBodyDocument(row));
  });

  hub.post('/messages/:id/resend', hubRoute('admin', {
    operationId: 'hubResendMessage',
    summary: 'Re-send a message that was not delivered',
    description:
      'Queues a new message with the same recipient, content and Message-ID, naming this one (resend_of), and answers it. ' +
      'For a failed message; for an unknown one (it may have arrived) only with `force: true`; each message once. A sent, ' +
      'queued or sending message, one re-sent already (resource_id: its re-send), and one whose contact may not be contacted ' +
      'now (opted out, do-not-contact, STOP, no consent, erased, archived) are refused with 409 message_cannot_resend.',
    params: MessageIdParams,
    body: optionalBody(ResendBody),
    response: { 201: HubMessageDetail },
  }), async (request, reply) => {
    const auth = hubAuthOf(request);
    const r = await resendMessage(deps.db, { messageId: request.params.id, accountId: auth.accountId, force: request.body?.force === true, actor: actorOf(auth) });
    return reply.code(201).send(renderMessageDetail(found(await getMessage(deps.db, auth.accountId, r.id), 'message'), true));
  });
}
