// Body handling (docs/architecture.md §6.1 step 8, §17): no /v1 route takes a body yet, so the
// app's error handling and validator are installed on a bare fastify instance with one body-taking
// route, exactly as buildApp installs them, and the spec's 415 / 413 / 400 invalid_json / 422
// answers are checked there.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT } from '../../src/http/app.js';
import { installErrorHandling } from '../../src/http/error-handler.js';
import { validatorCompiler } from '../../src/http/validation.js';
import { expectError } from './fixtures.js';

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify({ logger: false, genReqId: () => randomUUID(), requestIdHeader: false, bodyLimit: BODY_LIMIT });
  app.setValidatorCompiler(validatorCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandling(app);
  app.post(
    '/echo',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { a: { type: 'string' }, flag: { type: 'boolean' } },
        },
      },
    },
    async (request) => ({ got: request.body }),
  );
  await app.ready();
});
afterAll(() => app?.close());

const post = (payload: string, contentType?: string) =>
  app.inject({ method: 'POST', url: '/echo', headers: contentType ? { 'content-type': contentType } : {}, payload });

/** A JSON object {"a":"xxx…"} of exactly `bytes` bytes. */
const jsonOfSize = (bytes: number) => JSON.stringify({ a: 'x'.repeat(bytes - '{"a":""}'.length) });

describe('accepted bodies', () => {
  it('application/json, with or without a charset', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8']) {
      const res = await post('{"a":"hi","flag":true}', type);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ got: { a: 'hi', flag: true } });
    }
  });

  it('a body of exactly 1,048,576 bytes', async () => {
    const payload = jsonOfSize(BODY_LIMIT);
    expect(Buffer.byteLength(payload)).toBe(1_048_576);
    expect((await post(payload, 'application/json')).statusCode).toBe(200);
  });
});

describe('refused bodies', () => {
  it.each([
    ['text/plain', 'hello'],
    ['application/x-www-form-urlencoded', 'a=1'],
    ['multipart/form-data; boundary=x', '--x\r\n\r\nhi\r\n--x--'],
  ])('%s → 415 unsupported_media_type', async (type, payload) => {
    expectError(await post(payload, type), 415, 'invalid_request', 'unsupported_media_type');
  });

  it('a body without a content type → 415 unsupported_media_type', async () => {
    expectError(await post('{"a":"hi"}'), 415, 'invalid_request', 'unsupported_media_type');
  });

  it('one byte over 1 MiB → 413 body_too_large', async () => {
    const payload = jsonOfSize(BODY_LIMIT + 1);
    expectError(await post(payload, 'application/json'), 413, 'invalid_request', 'body_too_large');
  });

  it.each(['{not json', '{"a":', "{'a':'b'}", '{"a":"b"} trailing'])('malformed JSON %j → 400 invalid_json', async (payload) => {
    expectError(await post(payload, 'application/json'), 400, 'invalid_request', 'invalid_json');
  });

  it.each(['[]', 'null', '"text"', '42'])('valid JSON that is not an object (%s) → 422 invalid_body', async (payload) => {
    expectError(await post(payload, 'application/json'), 422, 'invalid_request', 'invalid_body');
  });

  it('an unknown field → 422 unknown_field naming it (never dropped)', async () => {
    expectError(await post('{"a":"hi","extra":1}', 'application/json'), 422, 'invalid_request', 'unknown_field', 'extra');
  });

  it('a field of the wrong type → 422 invalid_field naming it (no coercion of bodies)', async () => {
    expectError(await post('{"flag":"false"}', 'application/json'), 422, 'invalid_request', 'invalid_field', 'flag');
    expectError(await post('{"a":1}', 'application/json'), 422, 'invalid_request', 'invalid_field', 'a');
  });
});
