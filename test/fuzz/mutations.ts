// Mutations: each takes a valid request and puts one fault in it, and says what the spec answers
// when that fault alone decides (pipeline order: auth, routing, account, scope, rate limit, body
// parsing, then validation of params, body, query, headers, then idempotency, then the handler).
import type { Mutation } from './mutation-kit.js';
import { BODY_MUTATIONS } from './mutations-body.js';
import { HEADER_MUTATIONS } from './mutations-headers.js';
import { REQUEST_LINE_MUTATIONS } from './mutations-request-line.js';

export type { Ctx, Keyed, Mutation } from './mutation-kit.js';
export { fingerprintOf } from './mutation-kit.js';

export const MUTATIONS: Mutation[] = [...REQUEST_LINE_MUTATIONS, ...BODY_MUTATIONS, ...HEADER_MUTATIONS];
