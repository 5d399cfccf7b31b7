// A service's Refusal and a definition's DefinitionError are answered by the error handler itself
// (src/http/error-handler.ts), so a route that calls a service without wrapping it still answers
// the catalogue's 4xx, never 500. Planted on a bare fastify instance with the app's error handling,
// as bodies.test.ts does, with routes that throw them unwrapped.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandling } from '../../src/http/error-handler.js';
import { DefinitionError, ROOT } from '../../src/lib/json-fields.js';
import { missing, Refusal } from '../../src/services/refusal.js';
import { expectError } from './fixtures.js';

let app: FastifyInstance;
const thrown: Record<string, Error> = {
  missing: missing('automation version', 'automation 0190 has no version 7 (published: 2)'),
  conflict: new Refusal('automation 0190 is paused and its draft has no unpublished changes: nothing to publish', 'automation_status_conflict'),
  changed: new Refusal('workflow 0190 was changed at …, after the version you edited: reload it', 'workflow_changed'),
  incomplete: new Refusal('automation 0190 cannot be published: steps[0].config.subject: Required.', 'automation_not_publishable', { param: 'steps[0].config.subject' }),
  definition: new DefinitionError('blocks[2].kind', 'must be one of source.text, agent'),
  rootDefinition: new DefinitionError(ROOT, 'changes nothing'),
};

beforeAll(async () => {
  app = Fastify({ logger: false, genReqId: () => randomUUID(), requestIdHeader: false });
  installErrorHandling(app);
  app.get('/throws/:what', async (request) => {
    throw thrown[(request.params as { what: string }).what];
  });
  await app.ready();
});
afterAll(() => app?.close());

const get = (what: string) => app.inject({ method: 'GET', url: `/throws/${what}` });

describe('refusals thrown through a route that does not wrap them', () => {
  it('a missing record: 404 resource_not_found in the API words, without the ids the message names', async () => {
    const e = expectError(await get('missing'), 404, 'not_found', 'resource_not_found');
    expect(e.message).toBe('No such automation version in this account.');
  });

  it('a forbidden move: 409 with its catalogue code and the service message', async () => {
    expect(expectError(await get('conflict'), 409, 'conflict', 'automation_status_conflict').message).toBe(thrown.conflict.message);
    expect(expectError(await get('changed'), 409, 'conflict', 'workflow_changed').message).toBe(thrown.changed.message);
  });

  it('an incomplete draft: 422 automation_not_publishable with the body path at fault as param', async () => {
    const e = expectError(await get('incomplete'), 422, 'invalid_request', 'automation_not_publishable', 'steps[0].config.subject');
    expect(e.message).toBe(thrown.incomplete.message);
  });

  it('a definition error: 422 invalid_field, its path as param (none for the whole body), its detail as message', async () => {
    expect(expectError(await get('definition'), 422, 'invalid_request', 'invalid_field', 'blocks[2].kind').message).toBe('must be one of source.text, agent');
    expect(expectError(await get('rootDefinition'), 422, 'invalid_request', 'invalid_field').message).toBe('changes nothing');
  });
});
