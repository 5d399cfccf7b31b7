// Response serializers compiled on first use, with Nullable(X) given to fast-json-stringify as
// X + nullable: the JSON must be exactly what the schema as written would give.
import fastJsonStringify from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { Workflow } from '../../src/api/workflows/schemas.js';
import { ListEnvelope, Nullable, Uuid } from '../../src/http/schemas.js';
import { lazySerializerFactory, withNullable } from '../../src/http/lazy-serializer.js';
import { Type } from '@sinclair/typebox';

const row = (lastRun: boolean, project: boolean) => ({
  id: '0190a000-0000-7000-8000-000000000001',
  name: 'W "quoted" \u2028',
  description: '',
  status: 'active',
  project_id: project ? '0190a000-0000-7000-8000-000000000002' : null,
  updated_at: '2026-11-27T08:00:00.000Z',
  last_run: lastRun ? { id: '0190a000-0000-7000-8000-000000000003', status: 'succeeded', at: '2026-11-27T09:00:00.000Z' } : null,
});

describe('withNullable', () => {
  it('turns anyOf [X, null] into X + nullable, either order, keeping the description', () => {
    expect(withNullable(Nullable(Uuid))).toEqual({ type: 'string', format: 'uuid', description: 'A UUID.', nullable: true });
    expect(withNullable({ anyOf: [{ type: 'null' }, { type: 'integer' }], description: 'd' })).toEqual({ type: 'integer', description: 'd', nullable: true });
  });

  it('leaves other unions and references alone, and never changes the schema it is given', () => {
    const union = Type.Union([Type.String(), Type.Integer()]);
    expect(withNullable(union)).toEqual(JSON.parse(JSON.stringify(union)));
    const ref = { anyOf: [{ $ref: 'X#' }, { type: 'null' }] };
    expect(withNullable(ref)).toEqual(ref);
    const schema = Nullable(Uuid);
    withNullable(schema);
    expect(schema.anyOf).toHaveLength(2);
  });
});

describe('lazy serializers', () => {
  const schema = ListEnvelope(Workflow, 'WorkflowList');
  const data = { data: [row(true, true), row(false, false), row(true, false)], has_more: true, next_cursor: null };

  it('write exactly what fast-json-stringify writes from the schema as declared', () => {
    const compile = lazySerializerFactory()({}, {});
    const lazy = compile({ schema, method: 'GET', url: '/v1/workflows', httpStatus: '200' });
    const eager = fastJsonStringify(schema as never);
    expect(lazy(data)).toBe(eager(data));
    expect(JSON.parse(lazy(data))).toEqual(data);
    const one = compile({ schema: Workflow, method: 'GET', url: '/v1/workflows/:id', httpStatus: '200' });
    for (const r of [row(true, true), row(false, false)]) expect(one(r)).toBe(fastJsonStringify(Workflow as never)(r));
  });
});
