// The hub's route kit: what a /hub/api route declares (the access it needs) and how a handler
// reads its caller. The hub's hook (hub/auth.ts) enforces the declaration before any body is read;
// handlers only call hubAuthOf. Route files under src/hub/<area>/routes.ts use these and nothing
// else to say who may call them.
import type { FastifyRequest } from 'fastify';
import type { Static, TSchema } from '@sinclair/typebox';
import type { Role } from '../domain/account.js';
import { HUB_TAG, type HubAccess } from '../domain/hub.js';
import type { Lister, ListRequest, PageQuery } from '../http/list.js';
import type { App } from '../http/route-kit.js';
import { errorResponses, ListEnvelope } from '../http/schemas.js';

/** The caller of a hub route that needs an account (access 'member' or 'admin'). */
export interface HubAuth {
  /** The session's row key (the hash of its token), hex: what sign-out and audit entries name. */
  sessionId: string;
  email: string;
  accountId: string;
  userId: string;
  role: Role;
  /** "Name <email>" or the email: how the audit log names this user. */
  label: string;
}

/** A signed-in caller that may not have picked an account yet (access 'signed-in'). */
export interface HubSessionInfo {
  sessionId: string;
  email: string;
  /** The users (one per account) this session may act as. */
  userIds: readonly string[];
  csrfToken: string;
  accountId: string | null;
  userId: string | null;
}

export interface HubRouteMeta {
  access: HubAccess;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the hub hook on routes of access 'member' or 'admin'; null elsewhere. */
    hubAuth: HubAuth | null;
    /** Set by the hub hook whenever a valid session cookie came with the request. */
    hubSession: HubSessionInfo | null;
  }
  interface FastifyContextConfig {
    hub?: HubRouteMeta;
  }
}

/** The route's `config`, which the hook reads (hubRoute below makes it). */
function hubAccess(access: HubAccess): { hub: HubRouteMeta } {
  return { hub: { access } };
}

/** The caller of a 'member' or 'admin' route; a null here is a route declared with less access (a bug). */
export function hubAuthOf(request: FastifyRequest): HubAuth {
  const auth = request.hubAuth;
  if (auth === null) throw new Error(`${request.method} ${request.routeOptions.url} is not an account route of the hub`);
  return auth;
}

/** The session of a 'signed-in' (or stronger) route. */
export function hubSessionOf(request: FastifyRequest): HubSessionInfo {
  const s = request.hubSession;
  if (s === null) throw new Error(`${request.method} ${request.routeOptions.url} is not a signed-in route of the hub`);
  return s;
}

/** Errors every hub route may answer, by the access it declares. */
const ACCESS_ERRORS: Record<HubAccess, number[]> = {
  public: [400, 403, 415, 422, 429],
  'signed-in': [400, 401, 403, 415, 422],
  member: [400, 401, 403, 404, 409, 415, 422],
  admin: [400, 401, 403, 404, 409, 415, 422],
};

/** The `response` of a hub route: its successes and every error status it can answer. */
function hubResponses(access: HubAccess, ok: Record<number, TSchema>, extraErrors: number[] = []): Record<number, TSchema> {
  const statuses = [...new Set([...ACCESS_ERRORS[access], ...extraErrors])].sort();
  return { ...ok, ...errorResponses(statuses) };
}

/** What a hub route documents: its operation, its schemas, and in `response` its successes only. */
export interface HubSchema {
  operationId: string;
  summary: string;
  description?: string;
  params?: TSchema;
  querystring?: TSchema;
  headers?: TSchema;
  body?: TSchema;
  response: Record<number, TSchema>;
}

/**
 * A hub route's options (`hub.get(url, hubRoute('member', {...}), handler)`): the hub's tag (every
 * hub route carries it in the OpenAPI document; the document's kit names it too), the
 * schemas, the successes with every error the access can answer (and `extraErrors`), and the
 * access the hook enforces. The access is named once, so what the document promises and what the
 * hook checks cannot drift apart.
 */
export function hubRoute<S extends HubSchema>(
  access: HubAccess,
  schema: S,
  extraErrors: number[] = [],
): { schema: Omit<S, 'response'> & { tags: string[]; response: Record<number, TSchema> }; config: { hub: HubRouteMeta } } {
  return {
    schema: { tags: [HUB_TAG], ...schema, response: hubResponses(access, schema.response, extraErrors) },
    config: hubAccess(access),
  };
}

/** The audit log's actor for the hub user making this request. */
export function actorOf(auth: HubAuth): { kind: 'user'; id: string; label: string } {
  return { kind: 'user', id: auth.userId, label: auth.label };
}

/** A list's querystring: any schema whose value carries limit and cursor (ListQuery's fields). */
type PagedQuery = TSchema & { static: PageQuery };

/**
 * A hub list route: its contract (operation, words, query, the item and the envelope's title) and
 * its one read. Every list pages the same way (limit and cursor in, ListEnvelope out, the cursor
 * bound to the account, the route and `filters`), so only what differs is declared here.
 */
export interface HubListRoute<Q extends PagedQuery, P extends TSchema, I extends TSchema, R> {
  operationId: string;
  summary: string;
  description?: string;
  params?: P;
  querystring: Q;
  /** One row of the list as the response shows it, and the list's title in the document. */
  item: I;
  title: string;
  lister: Lister<R>;
  /** The filters in force: a cursor made under other filters is refused. */
  filters: (query: Static<Q>, params: Static<P>) => Record<string, unknown>;
  /** Reads `page.fetch` rows after `page.after` in the page's account (it may 404 on a parent). */
  read: (page: ListRequest, query: Static<Q>, params: Static<P>) => Promise<R[]>;
  render: (row: R) => Static<I>;
}

/** Declares a hub list route (GET `url`) and runs it: start the page, read it, render it. */
export function hubList<Q extends PagedQuery, P extends TSchema, I extends TSchema, R>(
  hub: App,
  url: string,
  access: 'member' | 'admin',
  route: HubListRoute<Q, P, I, R>,
  extraErrors: number[] = [],
): void {
  const { item, title, lister, filters, read, render, ...doc } = route;
  hub.get(url, hubRoute(access, { ...doc, response: { 200: ListEnvelope(item, title) } }, extraErrors), async (request) => {
    // The type provider infers a concrete schema's types; for a generic one it cannot resolve
    // them, so they are named here once, and every list's filters and read are typed from them.
    const query = request.query as Static<Q>;
    const params = request.params as Static<P>;
    const page = lister.start(request, query, filters(query, params), hubAuthOf(request).accountId);
    return lister.page(page, await read(page, query, params), render);
  });
}
