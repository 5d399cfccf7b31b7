// Work management's writes in the hub (issue 27): owners and admins open the area in a project,
// rename its key prefix and delete items; members create and edit items and comment. The session,
// its CSRF token and the role are checked by the hub's hook before any body is read (kit.ts);
// everything else is the services' (services/workmgmt). Another account's project or item is 404,
// as an unknown one is. Writes answer with what the reads show, so the screen needs no second read.
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { ItemParams, ProjectParams, WorkProject } from '../../api/workmgmt/schemas.js';
import { renderProject } from '../../api/workmgmt/render.js';
import { openWorkArea, renameWorkPrefix } from '../../services/workmgmt/area.js';
import { addComment, deleteOwnComment, editOwnComment } from '../../services/workmgmt/comments.js';
import { createWorkItem, deleteWorkItem, editWorkItem } from '../../services/workmgmt/items.js';
import { moveWorkItem } from '../../services/workmgmt/ranks.js';
import { actorOf, hubAuthOf, hubRoute } from '../kit.js';
import { hubWorkItem } from './render.js';
import { CommentBody, CommentParams, CreateItemBody, EditItemBody, HubWorkItem, MoveItemBody, PrefixBody } from './schemas.js';

const ITEMS = '/workmgmt/projects/:project_id/items';

export function registerHubWorkWriteRoutes(hub: App, deps: AppDeps): void {
  hub.post('/workmgmt/projects/:project_id/open', hubRoute('admin', {
    operationId: 'hubOpenWorkArea',
    summary: 'Open work management in a project (owners and admins)',
    description: 'With its first key prefix. A project that already opened it is 409 work_area_open (rename the prefix instead). Audited as work.opened.',
    params: ProjectParams,
    body: PrefixBody,
    response: { 200: WorkProject },
  }), async (request) => {
    const auth = hubAuthOf(request);
    return renderProject(await openWorkArea(deps.db, auth.accountId, request.params.project_id, request.body.prefix, actorOf(auth)));
  });

  hub.patch('/workmgmt/projects/:project_id/prefix', hubRoute('admin', {
    operationId: 'hubRenameWorkPrefix',
    summary: "Rename a project's key prefix (owners and admins)",
    description: 'The old prefix joins previous_prefixes: keys written with it still find their items. Audited as work.prefix_changed.',
    params: ProjectParams,
    body: PrefixBody,
    response: { 200: WorkProject },
  }), async (request) => {
    const auth = hubAuthOf(request);
    return renderProject(await renameWorkPrefix(deps.db, auth.accountId, request.params.project_id, request.body.prefix, actorOf(auth)));
  });

  hub.post(ITEMS, hubRoute('member', {
    operationId: 'hubCreateWorkItem',
    summary: 'Create a work item',
    description: "A story, task, bug or epic with the project's next key number (never reused, also under concurrent creates).",
    params: ProjectParams,
    body: CreateItemBody,
    response: { 201: HubWorkItem },
  }), async (request, reply) => {
    const { accountId } = hubAuthOf(request);
    const key = await createWorkItem(deps.db, accountId, request.params.project_id, request.body);
    return reply.code(201).send(await hubWorkItem(deps, accountId, request.params.project_id, key));
  });

  hub.patch(`${ITEMS}/:key`, hubRoute('member', {
    operationId: 'hubEditWorkItem',
    summary: 'Edit a work item',
    description:
      'The fields sent change, each with a history entry; expected_updated_at is the version the edit started from: ' +
      'when the item changed since, 409 work_item_changed and nothing is written.',
    params: ItemParams,
    body: EditItemBody,
    response: { 200: HubWorkItem },
  }), async (request) => {
    const auth = hubAuthOf(request);
    const { expected_updated_at, ...fields } = request.body;
    const key = await editWorkItem(deps.db, auth.accountId, request.params.project_id, request.params.key, fields, expected_updated_at, actorOf(auth));
    return hubWorkItem(deps, auth.accountId, request.params.project_id, key);
  });

  hub.post(`${ITEMS}/:key/move`, hubRoute('member', {
    operationId: 'hubMoveWorkItem',
    summary: 'Move a work item in the backlog',
    description:
      'Right before or after another item of the project (one rank written, nothing renumbered), and into a sprint or the ' +
      'backlog in the same call (that change gets a history entry). New items start at the end of the backlog.',
    params: ItemParams,
    body: MoveItemBody,
    response: { 200: HubWorkItem },
  }), async (request) => {
    const auth = hubAuthOf(request);
    const key = await moveWorkItem(deps.db, auth.accountId, request.params.project_id, request.params.key, request.body, actorOf(auth));
    return hubWorkItem(deps, auth.accountId, request.params.project_id, key);
  });

  hub.delete(`${ITEMS}/:key`, hubRoute('admin', {
    operationId: 'hubDeleteWorkItem',
    summary: 'Delete a work item (owners and admins)',
    description: "It leaves every list and read (404, in /v1 too); its history is kept and its number never given again. Audited as work_item.deleted.",
    params: ItemParams,
    response: { 204: Type.Null() },
  }), async (request, reply) => {
    const auth = hubAuthOf(request);
    await deleteWorkItem(deps.db, auth.accountId, request.params.project_id, request.params.key, actorOf(auth));
    return reply.code(204).send();
  });

  hub.post(`${ITEMS}/:key/comments`, hubRoute('member', {
    operationId: 'hubAddWorkComment',
    summary: 'Comment on a work item',
    description: 'Markdown, kept as written. Answers the item with its history.',
    params: ItemParams,
    body: CommentBody,
    response: { 201: HubWorkItem },
  }), async (request, reply) => {
    const auth = hubAuthOf(request);
    await addComment(deps.db, auth.accountId, request.params.project_id, request.params.key, request.body.text, actorOf(auth));
    return reply.code(201).send(await hubWorkItem(deps, auth.accountId, request.params.project_id, request.params.key));
  });

  hub.patch(`${ITEMS}/:key/comments/:seq`, hubRoute('member', {
    operationId: 'hubEditWorkComment',
    summary: 'Edit your comment',
    description: "Only its author may (403 not_your_comment otherwise, whatever the role); it keeps its place and notes edited_at.",
    params: CommentParams,
    body: CommentBody,
    response: { 200: HubWorkItem },
  }), async (request) => {
    const auth = hubAuthOf(request);
    const { project_id, key, seq } = request.params;
    await editOwnComment(deps.db, auth.accountId, project_id, key, Number(seq), request.body.text, actorOf(auth));
    return hubWorkItem(deps, auth.accountId, project_id, key);
  });

  hub.delete(`${ITEMS}/:key/comments/:seq`, hubRoute('member', {
    operationId: 'hubDeleteWorkComment',
    summary: 'Delete your comment',
    description: 'Only its author may (403 not_your_comment otherwise); it leaves the history, in /v1 too.',
    params: CommentParams,
    response: { 204: Type.Null() },
  }), async (request, reply) => {
    const auth = hubAuthOf(request);
    const { project_id, key, seq } = request.params;
    await deleteOwnComment(deps.db, auth.accountId, project_id, key, Number(seq), actorOf(auth));
    return reply.code(204).send();
  });
}
