// Operations endpoints outside /v1: liveness, readiness and the generated OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestVersion } from '../../src/db/migrate.js';
import { providerReport } from '../../src/delivery/transports/index.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { UUID_RE } from './fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('/healthz and /readyz', () => {
  it('/healthz → 200 {status: ok} without a key', async () => {
    const res = await get('/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toMatch(UUID_RE);
  });

  it('/readyz → 200 with the store kind and the schema version', async () => {
    const res = await get('/readyz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      store: t.db.kind,
      schema_version: latestVersion(),
      rate_limits: 'ok',
      // The test app runs on the development providers, and /readyz says so.
      providers: {
        llm: { provider: 'local', development: true },
        email: { provider: 'outbox', development: true },
        sms: { provider: 'outbox', development: true },
      },
    });
    expect(['pglite', 'postgres']).toContain(res.json().store);
    expect(res.json().schema_version).toBeGreaterThanOrEqual(1);
  });

  it('/readyz flags only development providers: SMTP, an SMS webhook and a real LLM are not', () => {
    const real = providerReport({
      llm: { ...t.config.llm, provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' },
      delivery: { ...t.config.delivery, emailTransport: 'smtp', smtpUrl: 'smtp://u:secret@127.0.0.1:2525', smsTransport: 'http', smsWebhookUrl: 'http://127.0.0.1:9/sms' },
    });
    expect(real).toEqual({
      llm: { provider: 'openai-compatible', development: false },
      email: { provider: 'smtp', development: false },
      sms: { provider: 'http', development: false },
    });
    expect(JSON.stringify(real)).not.toContain('secret');
  });
});

describe('/openapi.json', () => {
  type Op = { operationId?: string; responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> };
  let doc: { openapi: string; paths: Record<string, Record<string, Op>>; components: { schemas: Record<string, any> } };
  beforeAll(async () => {
    const res = await get('/openapi.json');
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  const v1Ops = () =>
    Object.entries(doc.paths)
      .filter(([p]) => p.startsWith('/v1/'))
      .flatMap(([p, ops]) => Object.entries(ops).map(([m, op]) => [`${m.toUpperCase()} ${p}`, op] as const));

  it('is OpenAPI 3.1.0 with the workflow paths and their operationIds', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/workflows', '/v1/workflows/{id}']));
    expect(doc.paths['/v1/workflows'].get.operationId).toBe('listWorkflows');
    expect(doc.paths['/v1/workflows/{id}'].get.operationId).toBe('getWorkflow');
  });

  it('does not document the ops endpoints', () => {
    for (const p of ['/healthz', '/readyz', '/openapi.json']) expect(doc.paths[p]).toBeUndefined();
  });

  it('every /v1 operation documents 400, 401, 403, 404, 429 and 500 with the Error schema', () => {
    const ops = v1Ops();
    expect(ops.length).toBeGreaterThanOrEqual(2);
    for (const [name, op] of ops) {
      for (const status of ['400', '401', '403', '404', '429', '500']) {
        const schema = op.responses[status]?.content?.['application/json']?.schema;
        expect({ name, status, ref: schema?.$ref }).toEqual({ name, status, ref: '#/components/schemas/Error' });
      }
    }
  });

  it('the Error schema has the spec fields, param and resource_id optional', () => {
    const err = doc.components.schemas.Error.properties.error;
    expect(Object.keys(err.properties).sort()).toEqual(['code', 'message', 'param', 'request_id', 'resource_id', 'type']);
    expect([...err.required].sort()).toEqual(['code', 'message', 'request_id', 'type']);
  });

  it('the Workflow schema declares project_id and last_run nullable', () => {
    const ok = doc.paths['/v1/workflows/{id}'].get.responses['200'].content!['application/json'].schema as any;
    const props = ok.properties ?? doc.components.schemas[ok.$ref?.split('/').pop()]?.properties;
    for (const f of ['project_id', 'last_run']) {
      expect(JSON.stringify(props[f])).toContain('"null"');
    }
  });
});
